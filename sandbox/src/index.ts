import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loginRoute } from './auth.ts';
import type { SandboxClock } from './clock.ts';
import { controlRoutes } from './control.ts';
import { DEMO_CREDENTIALS, type SandboxCredentials } from './credentials.ts';
import { runtimePartsOf } from './domain.ts';
import { DOMAINS } from './domains/index.ts';
import type { WebhookEvent } from './events/bus.ts';
import { eventControlRoutes } from './events/control.ts';
import type { DeliveryAttempt } from './events/delivery.ts';
import type { RequestLogEntry } from './request-log.ts';
import type { SandboxLogger } from './logger.ts';
import { createRuntime } from './runtime.ts';
import type { Program } from './program.ts';
import { createRequestListener } from './server.ts';
import type { SandboxStore } from './store.ts';

export { DEMO_CREDENTIALS };
export type { DeliveryAttempt, Program, RequestLogEntry, SandboxClock, SandboxCredentials, SandboxLogger, SandboxStore, WebhookEvent };

export interface SandboxOptions {
  /** 0 = ephemeral (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Time from each API call's arrival to its answer (the work is done inside it); PUT /sandbox/latency overrides it at run time. */
  latencyMs?: number;
  /** Load the demo data (default true). */
  seed?: boolean;
  credentials?: SandboxCredentials;
  /** Default 1800 ("about 30 minutes", Document 1, section 8). */
  tokenTtlSeconds?: number;
  logger?: SandboxLogger;
  /** The service's own name, written `svc` in the documents' paths (default `svc`). */
  serviceSegment?: string;
  /** The card program (Document 2): CARDS (default) or BANKING; PUT /sandbox/program changes it. */
  program?: Program;
  /** Signs webhook deliveries (x-timestamp, x-signature: HMAC-SHA256) when set; unsigned by default. */
  webhookSigningSecret?: string;
  /**
   * The wait before each delivery attempt, in real milliseconds; its length is the number of
   * attempts. Default [0, 1000, 4000, 16000]: tests pass shorter ones.
   */
  webhookRetryDelaysMs?: readonly number[];
  /** How long one delivery attempt may take (default 5000 ms). */
  webhookTimeoutMs?: number;
}

export interface Sandbox {
  /** http://HOST:PORT, no trailing slash. */
  url: string;
  port: number;
  clock: SandboxClock;
  store: SandboxStore;
  requests(): RequestLogEntry[];
  /** Every webhook delivery attempt, oldest first (GET /sandbox/deliveries). */
  deliveries(): DeliveryAttempt[];
  /** Every event emitted since the start or the last reset, oldest first (GET /sandbox/events). */
  events(): WebhookEvent[];
  /** Same as POST /sandbox/reset. */
  reset(): void;
  /**
   * Told after every reset (POST /sandbox/reset or reset()): a reset drops the webhook subscriptions
   * too, and whoever filed them may want to file them again. Returns the function that stops it.
   */
  onReset(listener: () => void): () => void;
  /** Told after every change made through the control API (reset, clock, deposits, faults...): they happen behind the API's back. */
  onControlChange(listener: () => void): () => void;
  close(): Promise<void>;
}

// Failures are worth seeing even without a logger; routine events are not.
const DEFAULT_LOGGER: SandboxLogger = {
  info: () => {},
  warn: (obj, msg) => console.warn(msg ?? 'sandbox warning', obj),
};

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const runtime = createRuntime({
    domains: runtimePartsOf(DOMAINS),
    credentials: options.credentials ?? DEMO_CREDENTIALS,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 1800,
    latencyMs: options.latencyMs ?? 0,
    seed: options.seed ?? true,
    logger: options.logger ?? DEFAULT_LOGGER,
    program: options.program ?? 'CARDS',
    webhooks: {
      signingSecret: options.webhookSigningSecret ?? null,
      retryDelaysMs: options.webhookRetryDelaysMs,
      timeoutMs: options.webhookTimeoutMs,
    },
  });
  const segment = options.serviceSegment ?? 'svc';
  // Paths are declared as the documents write them; a deployment's own service name replaces `svc`.
  const apiRoutes = [loginRoute, ...DOMAINS.flatMap((domain) => domain.routes)].map((route) =>
    route.path.startsWith('/svc/') ? { ...route, path: `/${segment}${route.path.slice(4)}` } : route,
  );
  const allControlRoutes = [...controlRoutes, ...eventControlRoutes, ...DOMAINS.flatMap((domain) => domain.controlRoutes ?? [])];
  const server = createServer(createRequestListener(runtime, apiRoutes, allControlRoutes));
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${port}`;
  runtime.logger.info({ url }, 'sandbox listening');

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    clock: runtime.clock,
    store: runtime.store,
    requests: () => runtime.requestLog.list(),
    deliveries: () => runtime.deliveries.attempts(),
    events: () => runtime.store.events.list(),
    reset: () => runtime.reset(),
    onReset: (listener) => runtime.onReset(listener),
    onControlChange: (listener) => runtime.onControlChange(listener),
    close: () => (closed ??= Promise.all([shutdown(server, runtime.shutdown), runtime.deliveries.close()]).then(() => undefined)),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Cancels pending waits, then drops open (keep-alive or stalled) connections. */
function shutdown(server: Server, abortWaits: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    abortWaits();
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** A wildcard bind is reached through loopback; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
