/**
 * The upstream the gateway's runtime is built from: a bank (the configured one or the embedded
 * sandbox) joined with how every call to it goes, the limit on calls in flight and the cache.
 */

import type { BankIdentity, UpstreamSettings } from './bank.ts';
import type { CacheConfig } from './cache.ts';
import type { ConcurrencyConfig } from './concurrency.ts';

/** The settings every call to the bank follows, whichever bank it is. */
interface CallSettings {
  upstream: UpstreamSettings;
  concurrency: ConcurrencyConfig;
  cache: CacheConfig;
}

/**
 * The bank the gateway calls, with how every call to it goes (upstreamFor). Code that builds one
 * (tests, the benchmark) may leave out the limit (DEFAULT_CONCURRENCY), the cache (none) and the
 * contract checks (as shipped, DEFAULT_CONTRACT_CHECK; the test kit asks for `all`).
 */
export type UpstreamConfig = BankIdentity &
  Omit<UpstreamSettings, 'bank' | 'contractCheck'> &
  Partial<Pick<UpstreamSettings, 'contractCheck'>> &
  Partial<Pick<CallSettings, 'concurrency' | 'cache'>>;

/**
 * The bank the gateway calls, with how every call to it goes: the configured bank, or the embedded
 * sandbox when there is none (`npm start` gives its identity, src/start/sandbox-upstream.ts).
 */
export function upstreamFor(config: CallSettings, bank: BankIdentity): UpstreamConfig {
  const { bank: _configured, ...calls } = config.upstream;
  return { ...bank, ...calls, concurrency: config.concurrency, cache: config.cache };
}
