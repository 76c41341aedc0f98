import { z } from 'zod';
import type { BankLoginCredentials } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import type { BankConnection, TokenSource } from './bank-connection.ts';
import { endpoint } from './endpoint.ts';
import { single } from './models.ts';

export const loginEndpoint = endpoint({
  method: 'POST',
  path: '/api/v1/authentication/login',
  headers: 'login',
  // Logging in changes no record the cache keeps.
  changes: [],
  data: single(
    z.object({
      access_token: z.string().min(1),
      // Document 1 does not give the unit; see expiresAtFrom.
      expiry_time: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
    }),
  ),
});

export interface AccessToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** The documented lifetime ("about 30 minutes"), used when expiry_time is absent or implausible. */
export const DEFAULT_TOKEN_LIFETIME_MS = 30 * 60 * 1000;
const MAX_PLAUSIBLE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * expiry_time's unit is undocumented. Read it by magnitude: epoch milliseconds (≥ 1e12), epoch
 * seconds (≥ 1e9), a lifetime in milliseconds (≥ 1e5, i.e. over a day if it were seconds), else a
 * lifetime in seconds. An expiry in the past or over a day away is not believed: we fall back to the
 * documented 30 minutes rather than hammer login or hold a dead token.
 */
export function expiresAtFrom(expiryTime: number | null | undefined, now: number): number {
  const fallback = now + DEFAULT_TOKEN_LIFETIME_MS;
  if (expiryTime === null || expiryTime === undefined || !Number.isFinite(expiryTime) || expiryTime <= 0) return fallback;
  const expiresAt =
    expiryTime >= 1e12
      ? expiryTime
      : expiryTime >= 1e9
        ? expiryTime * 1000
        : expiryTime >= 1e5
          ? now + expiryTime
          : now + expiryTime * 1000;
  return expiresAt <= now || expiresAt - now > MAX_PLAUSIBLE_LIFETIME_MS ? fallback : expiresAt;
}

export async function login(connection: BankConnection, credentials: BankLoginCredentials, now = Date.now()): Promise<AccessToken> {
  const data = await connection.call(loginEndpoint, {
    body: { client_key: credentials.clientKey, client_secret: credentials.clientSecret, email: credentials.email },
  });
  return { token: data.access_token, expiresAt: expiresAtFrom(data.expiry_time, now) };
}

export interface TokenManagerOptions {
  login: () => Promise<AccessToken>;
  logger: Logger;
  /** Renew this long before the expiry so no request goes out with a token about to lapse. */
  renewBeforeMs?: number;
  now?: () => number;
}

/**
 * The gateway's own token: cached, renewed ahead of expiry, and single-flight, so however many
 * requests find it missing at once, exactly one login call goes out.
 */
export class TokenManager implements TokenSource {
  #current: AccessToken | undefined;
  #pending: Promise<AccessToken> | undefined;
  readonly #options: TokenManagerOptions;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
  }

  async get(): Promise<string> {
    return this.current() ?? (await this.#refresh()).token;
  }

  /** The cached token while it is not due for renewal. */
  current(): string | undefined {
    const now = (this.#options.now ?? Date.now)();
    const current = this.#current;
    return current && now < current.expiresAt - (this.#options.renewBeforeMs ?? 60_000) ? current.token : undefined;
  }

  /** A 401 on `refused`: drop it (unless someone already renewed it) and log in again. */
  async renew(refused: string): Promise<string> {
    if (this.#current?.token === refused) this.#current = undefined;
    return this.get();
  }

  #refresh(): Promise<AccessToken> {
    this.#pending ??= this.#options
      .login()
      .then((token) => {
        this.#current = token;
        this.#options.logger.info({ expiresAt: new Date(token.expiresAt).toISOString() }, 'upstream token renewed');
        return token;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}

/** A token a caller sent in `Authorization: Bearer`: forwarded as is, never renewed by us. */
export function callerToken(token: string): TokenSource {
  return { get: async () => token, current: () => token };
}
