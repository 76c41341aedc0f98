import { pino, type Logger } from 'pino';
import type { LogLevel } from '../settings/index.ts';
import { onFirstUse } from './on-first-use.ts';

/** pino-pretty, loaded only for a terminal. */
const prettyStream = onFirstUse<typeof import('pino-pretty')>('pino-pretty');

export type { Logger };

/** Secrets that must never reach a log line, wherever they appear in a logged object. */
const REDACT = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'access_token',
  '*.access_token',
  'accessToken',
  '*.accessToken',
  'client_secret',
  '*.client_secret',
  'clientSecret',
  '*.clientSecret',
  'credentials',
  '*.credentials',
  // API keys and shared secrets: the bank's, the webhook intake's, the callers'.
  '["x-api-key"]',
  '*["x-api-key"]',
  '["x-router-token"]',
  '*["x-router-token"]',
  'headers["x-router-token"]',
  '*.headers["x-router-token"]',
  'routerToken',
  '*.routerToken',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'signingSecret',
  '*.signingSecret',
  'token',
  '*.token',
  'password',
  '*.password',
  // Card secrets (Document 2): never logged, wherever they appear.
  'card_number',
  '*.card_number',
  'cardNumber',
  '*.cardNumber',
  'pin',
  '*.pin',
  'activation_code',
  '*.activation_code',
  'activationCode',
  '*.activationCode',
  'variables',
  '*.variables',
];

/**
 * JSON lines on stdout, or on `destination` (tests read what would have been logged). `pretty`
 * (a terminal) formats each line for a person with pino-pretty, in-process and synchronously, after
 * the same redaction.
 */
export function createLogger(
  level: LogLevel = 'info',
  destination?: { write(line: string): void },
  options: { pretty?: boolean } = {},
): Logger {
  const redact = redactor(REDACT, CENSOR);
  // Not pino's `redact` option: its redactor (@pinojs/redact, pino 10) parses every path again on
  // every call and clones what it walks, and with paths that start with `*` every object-valued key
  // of every line goes through it: a large share of what an operation allocated with the operation
  // log on (docs/architecture.md, "Measured costs"). The same paths, compiled once, walked only
  // where a line has their keys.
  const settings = { level, formatters: { log: redact }, base: { service: 'banking-gateway' } };
  const logger = destination
    ? pino(settings, destination)
    : options.pretty
      ? pino(settings, prettyStream()({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' }))
      : pino(settings, stdoutLines());
  // A child's bindings are written on each of its lines without passing the log formatter; every
  // child is made from this instance (pino's children inherit from their parent), so this covers all.
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redact(bindings), childOptions);
  } as Logger['child'];
  return logger;
}

/**
 * Stdout, each line written as it is logged. Not pino's default stdout, which writes
 * asynchronously: the lines logged while a write is pending are appended to one string whose byte
 * length sonic-boom measures again at every line (under load, more bytes allocated per line than
 * written: docs/architecture.md, "Measured costs"), and what is still pending when the process dies
 * is lost.
 */
export function stdoutLines(dest: number | string = 1) {
  return pino.destination({ dest, sync: true });
}

const CENSOR = '[redacted]';

/** A path's steps from the root, `*` for any key: `*.headers["x-api-key"]` → `*`, `headers`, `x-api-key`. */
function stepsOf(path: string): string[] {
  return [...path.matchAll(/[^.[\]]+|\[([^[\]]*?)\]/g)].map((match) => (match[1] ?? match[0]).replace(/^(["'`])(.*)\1$/, '$2'));
}

/** What to do with a value met at some depth: replace it, or look into its keys. */
interface RedactionNode {
  censor: boolean;
  /** The node for a key named by some path (paths through `*` merged in). */
  named: Map<string, RedactionNode>;
  /** The node for any other key, when a path goes through `*` here. */
  any: RedactionNode | undefined;
}

function compile(paths: string[][]): RedactionNode {
  const censor = paths.some((steps) => steps.length === 0);
  const deeper = paths.filter((steps) => steps.length > 0);
  const throughAny = deeper.filter((steps) => steps[0] === '*').map((steps) => steps.slice(1));
  const names = new Set(deeper.map((steps) => steps[0]!).filter((name) => name !== '*'));
  const named = new Map(
    [...names].map(
      (name) => [name, compile([...deeper.filter((steps) => steps[0] === name).map((steps) => steps.slice(1)), ...throughAny])] as const,
    ),
  );
  return { censor, named, any: throughAny.length > 0 ? compile(throughAny) : undefined };
}

/** An error to change for the log alone: its message, stack and cause are its own but not enumerable, and pino's serializer reads them. */
function errorCopy(error: Error): Error {
  return Object.assign(
    Object.create(Object.getPrototypeOf(error) as object) as Error,
    { message: error.message, stack: error.stack, ...(error.cause === undefined ? {} : { cause: error.cause }) },
    error,
  );
}

/**
 * A log line's object with every value at `paths` replaced by `censor`: a copy of each object on
 * the way to a replaced value, the caller's own objects never touched, and the line itself when
 * nothing in it is secret (most lines).
 */
function redactor(paths: string[], censor: string): <T extends object>(line: T) => T {
  const root = compile(paths.map(stepsOf));
  const walk = (value: unknown, node: RedactionNode): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    let copy: object | undefined;
    for (const key of Object.keys(value)) {
      const next = node.named.get(key) ?? node.any;
      if (!next) continue;
      const before = (value as Record<string, unknown>)[key];
      const after = next.censor ? censor : walk(before, next);
      if (after === before) continue;
      copy ??= Array.isArray(value) ? [...value] : value instanceof Error ? errorCopy(value) : { ...value };
      (copy as Record<string, unknown>)[key] = after;
    }
    return copy ?? value;
  };
  return (line) => walk(line, root) as typeof line;
}

export const silentLogger: Logger = pino({ level: 'silent' });

/** How often one kind of caller mistake is logged again while it keeps coming. */
const REPEAT_LOG_INTERVAL_MS = 60_000;

/**
 * A log that a caller cannot flood: each key (a kind of mistake) is logged the first time, then at
 * most once per `intervalMs`, with how many were left out since (`notLoggedSince`). Keys come from
 * callers' input, so at most MAX_KEYS are remembered at once (then the memory starts afresh).
 */
export function createThrottledLog(logger: Logger, intervalMs = REPEAT_LOG_INTERVAL_MS, now: () => number = Date.now) {
  const MAX_KEYS = 1_000;
  const lastLogged = new Map<string, { at: number; unlogged: number }>();
  return (key: string, level: 'info' | 'warn', fields: Record<string, unknown>, message: string): void => {
    const last = lastLogged.get(key);
    if (last && now() - last.at < intervalMs) {
      last.unlogged += 1;
      return;
    }
    if (lastLogged.size >= MAX_KEYS) lastLogged.clear();
    lastLogged.set(key, { at: now(), unlogged: 0 });
    logger[level](last ? { ...fields, notLoggedSince: last.unlogged } : fields, message);
  };
}
