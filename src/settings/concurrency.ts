/**
 * Calls in flight to the bank (UPSTREAM_*_CONCURRENCY, CLIENT_MAX_*): the limit learnt per bank
 * host, its bounds, and one client's share of it; with the rule that the bounds must not cross.
 */

import { flagOr, group, int, setting } from '@banking-gateway/settings';
import type { z } from 'zod';
import type { VariableOf } from './raw-environment.ts';

export const concurrencyGroup = group(
  'Calls in flight to the bank',
  'The documents give no limit, so the gateway learns one per bank host: it starts at `UPSTREAM_INITIAL_CONCURRENCY`, raises the limit while the bank answers at its usual speed and the limit is what holds calls back, and lowers it when latency climbs past 3x its floor or the bank answers 429, 503 or times out. Calls over the limit wait in a fair queue: clients take turns, and an operation under way goes before new ones. While another client is active, one client holds at most its share of the limit. See [operations.md](operations.md#calls-in-flight-to-the-bank) and [fair share per client](operations.md#fair-share-per-client).',
  {
    initial: setting(
      'UPSTREAM_INITIAL_CONCURRENCY',
      int(1, 10_000, 50),
      'the limit each bank host starts from (and keeps, with adaptation off)',
    ),
    min: setting('UPSTREAM_MIN_CONCURRENCY', int(1, 10_000, 4), 'the least the limit falls to however hard the bank pushes back'),
    max: setting('UPSTREAM_MAX_CONCURRENCY', int(1, 10_000, 96), 'the most the limit rises to; also the most connections per host'),
    adaptive: setting(
      'UPSTREAM_ADAPTIVE_CONCURRENCY',
      flagOr(true),
      "learn the limit from the bank's latency and pushback; `false` keeps the initial limit",
    ),
    perClient: setting(
      'CLIENT_MAX_UPSTREAM_IN_FLIGHT',
      int(0, 10_000, 0),
      'the most calls one client may have in flight to a bank host; its others wait for its own calls to end (within the operation deadline), however many slots are free. `0`: no cap of its own (its share, below, still applies)',
      '`0` (off)',
    ),
    sharePercent: setting(
      'CLIENT_MAX_SHARE_PERCENT',
      int(1, 100, 50),
      "while another client has calls in flight or waiting (or sent one in the last second), the most one client may hold of a bank host's limit, in percent; its other calls wait for its own to end, so a flooding client leaves room for the rest. A client alone may fill the limit. `100`: no share, turns only",
    ),
  },
);

/**
 * The adaptive limit on calls in flight per bank host: where it starts, its bounds, whether it
 * learns, and the cap on one client's share of it (`perClient`, 0 = none).
 */
export type ConcurrencyConfig = z.output<typeof concurrencyGroup>;

/** The limit's bounds must not cross (the initial limit is simply held within them). */
export function concurrencyProblems({ min, max }: ConcurrencyConfig, variable: VariableOf): string[] {
  return min > max ? [`${variable('concurrency.min')} (${min}) must not be above ${variable('concurrency.max')} (${max})`] : [];
}
