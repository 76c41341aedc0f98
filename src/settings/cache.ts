/** Caching bank reads (UPSTREAM_CACHE_*): whether reads are kept per bank user, how long, and how many. */

import { flagOr, group, int, setting } from '@banking-gateway/settings';
import type { z } from 'zod';

export const cacheGroup = group(
  'Caching bank reads',
  "Bank reads are kept per bank user (the gateway's own login, or each caller's token) and dropped, for every user and every instance, by each bank event and each write that touches their kind of record; the TTLs only bound what nothing announces. The table of what is kept and what drops it: [operations.md](operations.md#caching-bank-reads).",
  {
    enabled: setting('UPSTREAM_CACHE', flagOr(true), 'keep bank reads per bank user; `false` sends every read to the bank'),
    recordsTtlMs: setting(
      'UPSTREAM_CACHE_RECORDS_TTL_MS',
      int(0, 86_400_000, 30_000),
      'how long a record (accounts, balances, cards, payouts...) is kept when no event or write says it changed; 0 keeps none',
    ),
    ratesTtlMs: setting(
      'UPSTREAM_CACHE_RATES_TTL_MS',
      int(0, 86_400_000, 5_000),
      'FX rates and quote details, which move with the market and no event announces; 0 keeps none',
    ),
    referenceTtlMs: setting(
      'UPSTREAM_CACHE_REFERENCE_TTL_MS',
      int(0, 86_400_000, 3_600_000),
      "the bank's reference data (the beneficiary schema); 0 keeps none",
    ),
    maxEntries: setting(
      'UPSTREAM_CACHE_MAX_ENTRIES',
      int(100, 10_000_000, 20_000),
      'the most answers kept; the least recently used go first',
    ),
  },
);

/** Which bank reads are kept, how long, and how many (UPSTREAM_CACHE_*). */
export type CacheConfig = z.output<typeof cacheGroup>;
