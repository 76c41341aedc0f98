import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox/credentials.ts';
import { luhn } from '../../src/upstream/models.ts';
import { KIT_WEBHOOKS } from './kit-secrets.ts';

/**
 * The leak scan: every gateway response (HTTP, in-process fetch, SSE, graphql-ws) and every gateway
 * log line a test file produces is recorded here, and the setup file fails the file if any of them
 * holds a secret, a PIN, an activation code or a full card number.
 *
 * Secrets are known values (the demo credentials, the webhook key and signing secret, whatever a
 * test registers) plus what callers sent in sensitive input fields (pin, activationCode, cardNumber,
 * clientSecret) and the activation codes the sandbox e-mailed. Full card numbers are also found
 * without being known: any run of 13 to 19 digits that passes the Luhn check.
 */

export interface Finding {
  source: string;
  what: string;
  excerpt: string;
}

const secrets = new Map<string, string>();
const records: { source: string; text: string }[] = [];
let scanned = 0;

/** Field names whose values are secret wherever they appear in a caller's variables. */
const SENSITIVE_FIELDS =
  /^(pin|newPin|activationCode|activation_code|cardNumber|card_number|clientSecret|client_secret|password|apiKey|secret)$/i;

export function registerSecret(what: string, value: string | undefined | null): void {
  // Short values (a 4-digit PIN) are still worth checking; empty ones would match everything.
  if (value && value.length >= 4) secrets.set(value, what);
}

/** Registers the sensitive fields of a caller's variables (recursively). */
export function registerSensitiveInput(value: unknown): void {
  if (Array.isArray(value)) value.forEach(registerSensitiveInput);
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && SENSITIVE_FIELDS.test(key)) registerSecret(`input ${key}`, inner);
      else registerSensitiveInput(inner);
    }
  }
}

export function record(source: string, text: string): void {
  if (text) records.push({ source, text });
}

/** A run of 13-19 digits standing alone: one inside a hex id (a trace id: `…c5080571628723c…`) is the id's. */
const CARD_NUMBER = /(?<![\d.a-f])\d{13,19}(?![\da-f])/g;

export { luhn };

/** Looks through everything recorded since the last scan; returns what leaked. */
export function scan(): Finding[] {
  const findings: Finding[] = [];
  const found = (source: string, what: string, text: string, at: number) =>
    findings.push({ source, what, excerpt: text.slice(Math.max(0, at - 60), at + 60) });
  for (const { source, text } of records.splice(0)) {
    scanned += 1;
    for (const [value, what] of secrets) {
      const at = occurrence(text, value);
      if (at >= 0) found(source, what, text, at);
    }
    for (const match of text.matchAll(CARD_NUMBER)) {
      if (luhn(match[0]) && !isTimestampLike(match[0])) found(source, 'a full card number', text, match.index);
    }
  }
  return findings;
}

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/**
 * Where `value` stands in `text`, or -1. A numeric secret (a PIN, an activation code) counts only
 * standing alone: the same six digits inside a longer number, a log line's epoch milliseconds, are
 * not it.
 */
function occurrence(text: string, value: string): number {
  const numeric = /^\d+$/.test(value);
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (!numeric || (!isDigit(text[at - 1]) && !isDigit(text[at + value.length]))) return at;
  }
  return -1;
}

/** Epoch milliseconds and nanosecond clocks are digit runs too; no card number starts with 1 and has 13 digits. */
function isTimestampLike(digits: string): boolean {
  return (digits.length === 13 && digits.startsWith('1')) || (digits.length === 19 && digits.startsWith('1'));
}

/** Records scanned so far in this file. */
export function scannedCount(): number {
  return scanned;
}

/** Distinct secret values known so far in this file. */
export function secretCount(): number {
  return secrets.size;
}

for (const [what, value] of Object.entries({
  'the upstream API key': DEMO_CREDENTIALS.apiKey,
  'the upstream client secret': DEMO_CREDENTIALS.clientSecret,
  'the webhook API key': KIT_WEBHOOKS.apiKey,
  'the webhook signing secret': KIT_WEBHOOKS.signingSecret,
})) {
  registerSecret(what, value);
}
