import { loadDotEnv } from '../env-file.ts';
import { exitIfPortTaken } from '../port-taken.ts';
import { DEMO_CREDENTIALS, startSandbox } from './index.ts';
import { PROGRAMS, type Program } from './program.ts';

/** `npm run sandbox`: the sandbox on its own, configured from the environment. */

function envInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function envProgram(): Program {
  const raw = process.env.SANDBOX_PROGRAM;
  if (raw === undefined || raw === '') return 'CARDS';
  const program = PROGRAMS.find((candidate) => candidate === raw.toUpperCase());
  if (program === undefined) throw new Error(`SANDBOX_PROGRAM must be one of ${PROGRAMS.join(', ')}, got "${raw}"`);
  return program;
}

loadDotEnv();

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
  port: envInteger('SANDBOX_PORT', 4010),
  host: process.env.SANDBOX_HOST || '127.0.0.1',
  latencyMs: envInteger('SANDBOX_LATENCY_MS', 0),
  program: envProgram(),
  logger,
  ...(process.env.SANDBOX_WEBHOOK_SIGNING_SECRET ? { webhookSigningSecret: process.env.SANDBOX_WEBHOOK_SIGNING_SECRET } : {}),
}).catch((error: unknown) => exitIfPortTaken(error, 'SANDBOX_PORT', 'npm run sandbox'));

console.log(`Banking API sandbox listening on ${sandbox.url}`);
console.log('Demo credentials:');
for (const [key, value] of Object.entries(DEMO_CREDENTIALS)) console.log(`  ${key}: ${value}`);
console.log(`Control API: ${sandbox.url}/sandbox/ (reset, clock, latency, faults, requests, program, emails, kyc, cards, deposits, events, deliveries)`);

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
