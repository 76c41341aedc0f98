import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { Tracer } from '@opentelemetry/api';
import type { Plugin } from 'graphql-yoga';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { print, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  DEFAULT_AUDIT,
  DEFAULT_CACHE,
  DEFAULT_CONTRACT_CHECK,
  type AuditConfig,
  type CacheConfig,
  type ContractCheckConfig,
  type CallerAuthConfig,
  type ClientRateLimitConfig,
  type ConcurrencyConfig,
  type EventDurability,
  type EventLogConfig,
  type FederationConfig,
  type LiveQueryConfig,
  type QueryLimitsConfig,
  type RedisTarget,
  type ResilienceConfig,
  type UpstreamConfig,
  type WebhookConfig,
} from '../../src/settings/index.ts';
import type { AccessDeniedRecord, AuditRecord, MutationRecord } from '../../src/audit/record.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import type { ReadinessTiming } from '../../src/routes/health.ts';
import { createLogger, type Logger } from '../../src/platform/logger.ts';
import { startSandbox, type RequestLogEntry, type Sandbox, type SandboxOptions } from '@banking-gateway/sandbox';
import { sandboxUpstreamConfig } from '../../src/start/sandbox-upstream.ts';
import { apiClient, type ApiResponse } from '../../sandbox/test/helpers.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../src/upstream/retry-policy.ts';
import { KIT_WEBHOOKS } from './kit-secrets.ts';
import { record, registerSecret, registerSensitiveInput } from './leak-scan.ts';

/**
 * The test kit: a sandbox on an ephemeral port, a gateway wired to it exactly as `npm start` wires
 * it, and helpers to run typed operations in-process (yoga.fetch), drive the sandbox's control API
 * and count upstream calls from its request log.
 */

/** Retries fast enough for tests; the policy itself (attempts, retry budget) is the production one. */
const FAST_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 5, maxDelayMs: 20, budgetMs: 2_000 };

export interface KitOptions {
  sandbox?: SandboxOptions;
  /** Without them the gateway cannot log in itself; callers must send a bearer token. */
  gatewayCredentials?: boolean;
  retry?: RetryPolicy;
  timeoutMs?: number;
  serviceSegment?: string;
  /** The limit on calls in flight to the sandbox; the gateway's default when absent. */
  concurrency?: ConcurrencyConfig;
  /**
   * The record cache: on with the shipped settings unless `false`, or settings of one's own. As with
   * `npm start`, a write to the sandbox's control API (the clock, a deposit, a fault, a reset) drops
   * it, unless `controlDropsCache` is false. Tests that count the bank calls of reads repeated from
   * one test to the next turn it off.
   */
  cache?: boolean | Partial<CacheConfig>;
  /**
   * Which of the bank's answers are also checked whole (UPSTREAM_CONTRACT_CHECK): `all` unless a test
   * asks otherwise, so a payload that breaks its contract anywhere fails as a whole parse did, and
   * every test still reads the graph through the lazy reads.
   */
  contractCheck?: Partial<ContractCheckConfig>;
  /** Whether control-API writes drop the cache, as npm start wires it (default true). */
  controlDropsCache?: boolean;
  /** The gateway's logger (and the sandbox's); by default every line goes to the leak scan, not stdout. */
  logger?: Logger;
  /** Webhook intake settings; the kit's defaults are KIT_WEBHOOKS. */
  webhooks?: Partial<WebhookConfig>;
  /** Redis for events and every other shared part: one address (`{ url }`) or Sentinels. */
  redis?: RedisTarget;
  /** When an event may be acknowledged with Redis (default: on the primary only). */
  eventDurability?: EventDurability;
  /** Redis keys of the event log (default `bank-events`); gateways sharing events share it. */
  redisKeyPrefix?: string;
  /** Retention of the event log that subscriptions resume from. */
  eventLog?: Partial<EventLogConfig>;
  /** How fresh /readyz's evidence about the bank must be. */
  readiness?: ReadinessTiming;
  /**
   * File and keep the gateway's own webhook subscriptions at the sandbox, as `npm start` does (needs
   * `listen`): at start, after every sandbox reset, and on the reconciler's interval.
   */
  reconcileWebhooks?: boolean;
  /** Listen on an ephemeral port (webhook deliveries and WebSocket/SSE clients need a real server). */
  listen?: boolean;
  /** Who may call; default mode none. */
  auth?: CallerAuthConfig;
  limits?: Partial<QueryLimitsConfig>;
  /** Operations per client per window; off by default. */
  clientRateLimit?: Partial<ClientRateLimitConfig>;
  /** Live queries' push interval and limits. */
  liveQueries?: Partial<LiveQueryConfig>;
  /** As a Federation 2 subgraph (FEDERATION_*). */
  federation?: Partial<FederationConfig>;
  /** Redis keys of those counts (default `client-operations`); gateways sharing counts share it. */
  clientRateLimitKeyPrefix?: string;
  resilience?: Partial<ResilienceConfig>;
  metricsToken?: string;
  /** Tracing on, with this tracer (test/processes/tracing.test.ts starts the SDK and its collector). */
  tracer?: Tracer;
  /** Yoga or envelop plugins of the test's own, after the gateway's (createGateway's `plugins`). */
  plugins?: Plugin[];
  /** The audit trail's Redis Stream key (with `redis`); tests isolate themselves with it. */
  auditRedisKey?: string;
  /** Where the audit trail writes; by default stdout as npm start writes it, caught by the kit (`audit()`). */
  audit?: AuditConfig;
}

export { KIT_WEBHOOKS };

export interface Kit {
  sandbox: Sandbox;
  gateway: Gateway;
  upstreamConfig: UpstreamConfig;
  /** http://127.0.0.1:PORT of the listening gateway (with `listen`), else undefined. */
  baseUrl: string | undefined;
  execute<R, V>(document: TypedDocumentNode<R, V>, variables?: V, headers?: Record<string, string>): Promise<ExecutionResult<R>>;
  /** Upstream calls the sandbox saw (control calls excluded), optionally only those on `path`. */
  calls(
    path?: string,
    method?: string,
  ): Pick<RequestLogEntry, 'method' | 'path' | 'query' | 'status' | 'requestId' | 'correlationId' | 'traceparent'>[];
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** The audit trail's mutation records written since the last resetCounts (or fresh), oldest first. */
  audit(): MutationRecord[];
  /** Its access-denied records (refusals before execution) written since then, oldest first. */
  denied(): AccessDeniedRecord[];
  /** Forget the request log and the audit records so the next counts start from zero. */
  resetCounts(): Promise<void>;
  /**
   * Back to the demo data, with a clean request log. A reset revokes tokens upstream, so one call
   * first takes the gateway's re-login: counts then hold only what a test does.
   */
  fresh(): Promise<void>;
  close(): Promise<void>;
}

export async function startKit(options: KitOptions = {}): Promise<Kit> {
  const sandbox = await startSandbox({
    port: 0,
    webhookSigningSecret: KIT_WEBHOOKS.signingSecret,
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.sandbox,
  });
  const upstreamConfig = {
    ...sandboxUpstreamConfig(sandbox, {
      timeoutMs: options.timeoutMs ?? 2_000,
      serviceSegment: options.serviceSegment,
      gatewayCredentials: options.gatewayCredentials,
    }),
    contractCheck: { ...DEFAULT_CONTRACT_CHECK, mode: 'all' as const, ...options.contractCheck },
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.cache === false
      ? {}
      : { cache: { ...DEFAULT_CACHE, enabled: true, ...(typeof options.cache === 'object' ? options.cache : {}) } }),
  };
  // The audit trail as npm start writes it (JSON lines on stdout), caught here and scanned for secrets.
  const auditLines: string[] = [];
  const gateway = createGateway({
    audit: {
      ...(options.audit ?? DEFAULT_AUDIT),
      stdout: { write: (line: string) => (auditLines.push(line), record('audit trail', line)) },
    },
    auditRedisKey: options.auditRedisKey,
    upstream: upstreamConfig,
    logger: options.logger ?? scannedLogger,
    retry: options.retry ?? FAST_RETRY,
    webhooks: { ...KIT_WEBHOOKS, ...options.webhooks },
    redis: options.redis,
    eventDurability: options.eventDurability,
    redisKeyPrefix: options.redisKeyPrefix,
    eventLog: options.eventLog,
    readiness: options.readiness,
    auth: options.auth,
    limits: options.limits,
    clientRateLimit: options.clientRateLimit,
    liveQueries: options.liveQueries,
    federation: options.federation,
    clientRateLimitKeyPrefix: options.clientRateLimitKeyPrefix,
    resilience: options.resilience,
    metricsToken: options.metricsToken,
    tracer: options.tracer,
    plugins: options.plugins,
  });
  await gateway.events.ready;
  recordResponses(gateway);
  const baseUrl = options.listen ? `http://127.0.0.1:${(await gateway.server.listen(0, '127.0.0.1')).port}` : undefined;
  if (options.controlDropsCache !== false) sandbox.onControlChange(() => gateway.upstream.cache?.clear());
  if (options.reconcileWebhooks) {
    gateway.webhookReconciler.start(baseUrl);
    sandbox.onReset(() => void gateway.webhookReconciler.reconcileNow('the sandbox was reset'));
    await gateway.webhookReconciler.idle();
  }

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.url}/sandbox/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox control ${method} ${path} failed: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const auditRecords = () => auditLines.map((line) => JSON.parse(line) as AuditRecord);

  return {
    sandbox,
    gateway,
    upstreamConfig,
    baseUrl,
    async execute(document, variables, headers = {}) {
      const response = await gateway.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
        body: JSON.stringify({ query: print(document), variables }),
      });
      return response.json();
    },
    calls(path, method) {
      return sandbox.requests().filter((r) => (path === undefined || r.path === path) && (method === undefined || r.method === method));
    },
    control,
    audit: () => auditRecords().filter((r): r is MutationRecord => r.audit === 'mutation'),
    denied: () => auditRecords().filter((r): r is AccessDeniedRecord => r.audit === 'access_denied'),
    async resetCounts() {
      auditLines.length = 0;
      await control('DELETE', 'requests');
    },
    async fresh() {
      await control('POST', 'reset');
      // The reset changed every record behind the gateway's back, as no bank does.
      gateway.upstream.cache?.clear();
      // A reset drops the gateway's own webhook subscriptions; its reconciler (when on) files them again now.
      await gateway.webhookReconciler.idle();
      // Straight to the upstream: a GraphQL request would need the caller credentials of the kit's auth mode.
      if (upstreamConfig.credentials) await gateway.upstream.forRequest({ gatewayLogin: true, bypassCache: true }).accounts.balances();
      await control('DELETE', 'requests');
      auditLines.length = 0;
    },
    async close() {
      await registerEmailedCodes(control);
      if (baseUrl) await gateway.server.stop(1_000);
      else {
        await gateway.upstream.close();
        await gateway.events.close();
        await gateway.clientRateLimit.close();
        await gateway.auditTrail.close();
      }
      await sandbox.close();
    },
  };
}

/** Gateway log lines, at debug level so every upstream call's line is scanned too. */
const scannedLogger = createLogger('debug', { write: (line: string) => record('gateway log', line) });

/** Every answer the gateway gives, in-process or over HTTP (SSE included), goes to the leak scan. */
function recordResponses(gateway: Gateway): void {
  const fetchInProcess = gateway.yoga.fetch;
  gateway.yoga.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string') registerSensitiveInput(safeJson(init.body));
    const response = await fetchInProcess(input as never, init as never);
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      void response
        .clone()
        .text()
        .then((text) => record('in-process response', text));
    }
    return response;
  };
  gateway.server.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: string[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk).toString('utf8'));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...(rest as [])))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (keep(chunk), end(chunk as never, ...(rest as [])))) as typeof res.end;
    res.once('close', () => record(`HTTP ${req.method} ${req.url}`, chunks.join('')));
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The activation codes the sandbox e-mailed: the gateway must never have shown one. */
async function registerEmailedCodes(control: Kit['control']): Promise<void> {
  const emails = (await control('GET', 'emails').catch(() => [])) as { activationCode?: string }[] | { emails?: unknown };
  const list = Array.isArray(emails) ? emails : [];
  for (const email of list) registerSecret('an e-mailed activation code', email.activationCode);
}

/**
 * Resolves on the turn after an answer: an operation's log line and metrics are written then, once
 * the answer has gone (observability/operation-outcome.ts).
 */
export const afterAnswer = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One kit for a test file, started before its tests, closed after them, and `fresh()` before each
 * test. Returns a stand-in that reaches the kit once it is started.
 */
export function useKit(options: KitOptions = {}): Kit {
  let current: Kit | undefined;
  beforeAll(async () => {
    current = await startKit(options);
  });
  afterAll(() => current?.close());
  beforeEach(() => current?.fresh());
  return new Proxy({} as Kit, {
    get(_target, property: keyof Kit) {
      if (!current) throw new Error('the kit is used before beforeAll started it');
      return current[property];
    },
  });
}

/** A raw call to the sandbox REST API with the standard headers and a fresh demo token. */
export async function rawUpstream(
  kit: Kit,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiResponse> {
  const api = await apiClient(kit.sandbox);
  return api.send(method, path, options);
}
