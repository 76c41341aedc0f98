import { pino, type Logger } from 'pino';
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

/** JSON lines on stdout, or on `destination` (tests read what would have been logged). */
export function createLogger(level: LogLevel = 'info', destination?: { write(line: string): void }): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: { service: 'banking-gateway' } };
  return destination ? pino(options, destination) : pino(options);
}

export const silentLogger: Logger = pino({ level: 'silent' });
