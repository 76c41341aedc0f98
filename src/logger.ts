import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.ts';

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
export function createLogger(level: LogLevel = 'info', destination?: { write(line: string): void }, options: { pretty?: boolean } = {}): Logger {
  const settings = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'banking-gateway' } };
  if (destination) return pino(settings, destination);
  if (options.pretty) return pino(settings, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' }));
  return pino(settings);
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
