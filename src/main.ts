import { ConfigError, loadConfig, type Config, type UpstreamConfig } from './config.ts';
import { createGateway } from './gateway.ts';
import { createLogger, type Logger } from './logger.ts';
import { startSandbox, type Sandbox } from './sandbox/index.ts';
import { sandboxUpstreamConfig } from './sandbox/upstream-config.ts';

/** `npm start`: configuration, the embedded sandbox when no upstream is configured, the server. */

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

async function sandboxUpstream(config: Config, logger: Logger): Promise<{ upstream: UpstreamConfig; sandbox: Sandbox }> {
  const sandbox = await startSandbox({
    port: config.sandbox.port,
    latencyMs: config.sandbox.latencyMs,
    serviceSegment: config.serviceSegment,
    logger: logger.child({ component: 'sandbox' }),
  });
  logger.info({ url: sandbox.url }, 'no UPSTREAM_BASE_URL: embedded sandbox started with demo data');
  return {
    sandbox,
    upstream: sandboxUpstreamConfig(sandbox, { serviceSegment: config.serviceSegment, timeoutMs: config.upstreamTimeoutMs }),
  };
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const embedded = config.upstream ? undefined : await sandboxUpstream(config, logger);
  const upstream = config.upstream ?? embedded!.upstream;
  const gateway = createGateway({ upstream, logger });
  const { url } = await gateway.server.listen(config.port, config.host);
  logger.info({ url, upstream: upstream.baseUrl }, `gateway listening: GraphiQL at ${url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    await gateway.server.stop();
    await embedded?.sandbox.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
