import { existsSync } from 'node:fs';
import { DEMO_CREDENTIALS, startSandbox } from './index.ts';
import { ConfigError } from '@banking-gateway/settings';
import { loadSandboxSettings, type SandboxSettings } from '@banking-gateway/settings/sandbox';

/** `npm run sandbox`: the sandbox on its own, configured from the environment (its settings: @banking-gateway/settings/sandbox). */

/** A port that cannot be had is the operator's to fix: one line naming the variable, exit 1, no stack trace. */
function exitIfPortTaken(error: unknown): never {
  const { code } = error as { code?: string };
  if (code !== 'EADDRINUSE' && code !== 'EACCES') throw error;
  const why = code === 'EADDRINUSE' ? 'is in use by another process' : 'needs privileges this process lacks';
  process.stderr.write(
    `Port ${settings.port} ${why}: set SANDBOX_PORT to another port (for example SANDBOX_PORT=${settings.port + 100} npm run sandbox).\n`,
  );
  process.exit(1);
}

function readSettings(): SandboxSettings {
  try {
    return loadSandboxSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

// .env in the working directory when there is one; the shell's variables win.
if (existsSync('.env')) process.loadEnvFile('.env');
const settings = readSettings();

const logger = {
  info: (obj: object, msg?: string) => console.log(JSON.stringify({ level: 'info', msg, ...obj })),
  warn: (obj: object, msg?: string) => console.error(JSON.stringify({ level: 'warn', msg, ...obj, ...errorFields(obj) })),
};

// Error objects serialise to {}; keep their message and stack in the log line.
function errorFields(obj: object): object {
  const err = (obj as { err?: unknown }).err;
  return err instanceof Error ? { err: { message: err.message, stack: err.stack } } : {};
}

const sandbox = await startSandbox({
  port: settings.port,
  host: settings.host,
  latencyMs: settings.latencyMs,
  program: settings.program,
  logger,
  ...(settings.webhookSigningSecret ? { webhookSigningSecret: settings.webhookSigningSecret } : {}),
}).catch(exitIfPortTaken);

console.log(`Banking API sandbox listening on ${sandbox.url}`);
console.log('Demo credentials:');
for (const [key, value] of Object.entries(DEMO_CREDENTIALS)) console.log(`  ${key}: ${value}`);
console.log(
  `Control API: ${sandbox.url}/sandbox/ (reset, clock, latency, capacity, faults, requests, program, emails, kyc, cards, cardholders, deposits, events, deliveries)`,
);

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, stopping the sandbox`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
