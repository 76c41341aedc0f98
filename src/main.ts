import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, upstreamFor, type Config, type UpstreamConfig, type WebhookConfig } from './settings/index.ts';
import { loadDotEnv } from './settings/env-file.ts';
import { exitIfPortTaken } from './start/port-taken.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import type { Sandbox } from '@banking-gateway/sandbox';

/**
 * `npm start`: configuration, the embedded sandbox when no upstream is configured, the server.
 * The gateway and the sandbox are imported once the configuration is known good, so a mistake in
 * it is reported in a fraction of a second rather than after loading the whole graph.
 */

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * With the embedded sandbox, events flow out of the box: the gateway and its sandbox share a fresh
 * intake key and signing secret unless the operator set them.
 */
function sandboxWebhooks(config: Config): WebhookConfig {
  return {
    ...config.webhooks,
    apiKey: config.webhooks.apiKey ?? randomBytes(24).toString('base64url'),
    signingSecret: config.webhooks.signingSecret ?? randomBytes(32).toString('base64url'),
    agentCode: config.webhooks.agentCode ?? 'sandbox-agent',
    subagentCode: config.webhooks.subagentCode ?? 'sandbox-subagent',
    companyCode: config.webhooks.companyCode ?? 'sandbox-company',
  };
}

async function sandboxUpstream(
  config: Config,
  webhooks: WebhookConfig,
  logger: Logger,
): Promise<{ upstream: UpstreamConfig; sandbox: Sandbox }> {
  const { startSandbox } = await import('@banking-gateway/sandbox');
  const { sandboxUpstreamConfig } = await import('./start/sandbox-upstream.ts');
  const sandbox = await startSandbox({
    port: config.sandbox.port,
    latencyMs: config.sandbox.latencyMs,
    serviceSegment: config.upstream.serviceSegment,
    webhookSigningSecret: webhooks.signingSecret,
    logger: logger.child({ component: 'sandbox' }),
  }).catch((error: unknown) => exitIfPortTaken(error, 'SANDBOX_PORT', 'npm start'));
  logger.debug({ url: sandbox.url }, 'no UPSTREAM_BASE_URL: embedded sandbox started with demo data');
  return { sandbox, upstream: upstreamFor(config, sandboxUpstreamConfig(sandbox)) };
}

async function main(): Promise<void> {
  loadDotEnv();
  const config = readConfig();
  // Human-readable lines on a terminal (pino-pretty), JSON lines anywhere else.
  const logger = createLogger(config.server.logLevel, undefined, { pretty: process.stdout.isTTY === true });
  const { bank } = config.upstream;
  const webhooks = bank ? config.webhooks : sandboxWebhooks(config);
  const embedded = bank ? undefined : await sandboxUpstream(config, webhooks, logger);
  const upstream = bank ? upstreamFor(config, bank) : embedded!.upstream;
  // The SDK is loaded only when tracing is on: off, the gateway neither loads nor registers it.
  const tracing = config.tracing ? (await import('./observability/tracing-sdk.ts')).startTracing(config.tracing, logger) : undefined;
  const { createGateway } = await import('./gateway.ts');
  const { accessSummary, announceStart } = await import('./start/start-banner.ts');
  const { DEMO_CREDENTIALS } = await import('@banking-gateway/sandbox');
  const gateway = createGateway({
    upstream,
    logger,
    webhooks,
    redis: config.events.redis,
    eventDurability: config.events.durability,
    eventLog: config.events.log,
    auth: config.auth,
    limits: config.limits,
    clientRateLimit: config.clientRateLimit,
    liveQueries: config.liveQueries,
    federation: config.federation,
    audit: config.audit,
    resilience: config.resilience,
    metricsToken: config.metrics.token,
    processMetrics: true,
    tracer: tracing?.tracer,
  });
  const { url, port } = await gateway.server
    .listen(config.server.port, config.server.host)
    .catch((error: unknown) => exitIfPortTaken(error, 'PORT', 'npm start'));
  // Before `gateway ready` is written: whoever reads that line may stop the gateway at once, and a
  // SIGTERM with no handler yet killed the process without its graceful stop (exit code null in
  // test/processes/start.test.ts, once, with the machine busy).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await gateway.server.stop(config.resilience.shutdownGraceMs);
    await embedded?.sandbox.close();
    // After the last operation: its spans go out before the process does.
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  announceStart(
    {
      url,
      graphiql: config.limits.graphiql,
      upstream: upstream.baseUrl,
      access: accessSummary(config.auth),
      ...(embedded ? { sandbox: { url: embedded.sandbox.url, credentials: DEMO_CREDENTIALS } } : {}),
    },
    logger,
  );
  // The sandbox reaches the gateway on loopback; a real bank needs PUBLIC_URL.
  const publicUrl = webhooks.publicUrl ?? (embedded ? `http://127.0.0.1:${port}` : undefined);
  // Filed now and kept filed (every WEBHOOK_RECONCILE_INTERVAL_MS); a sandbox reset drops them, so at once then.
  gateway.webhookReconciler.start(publicUrl);
  embedded?.sandbox.onReset(() => void gateway.webhookReconciler.reconcileNow('the sandbox was reset'));
  // The control API (a reset, the clock, a deposit) changes records behind the bank API's back, as no
  // bank does, and time-driven changes happen only when a call reaches the sandbox: nothing kept stands.
  embedded?.sandbox.onControlChange(() => gateway.upstream.cache?.clear());
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
