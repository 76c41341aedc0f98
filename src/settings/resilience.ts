/** A failing bank: the operation deadline, a circuit breaker per upstream family, and the grace of a shutdown. */

import { group, int, setting } from '@banking-gateway/settings';
import { z } from 'zod';

export const resilienceGroup = group('A failing bank', 'See [operations.md](operations.md).', {
  operationDeadlineMs: setting(
    'OPERATION_DEADLINE_MS',
    int(100, 600_000, 15_000),
    'every query or mutation ends by then, whatever the bank does',
  ),
  breaker: z.object({
    errorRate: setting(
      'BREAKER_ERROR_RATE',
      z
        .preprocess(
          (v) => (v === '' || v === undefined ? 0.5 : v),
          z.coerce.number({ error: 'must be a number' }).gt(0, { error: 'must be above 0' }).max(1, { error: 'must be at most 1' }),
        )
        .meta({ rule: 'number, above 0, at most 1' }),
      "a family's circuit breaker opens when at least this share of its calls in the window failed...",
    ),
    minCalls: setting('BREAKER_MIN_CALLS', int(1, 100_000, 20), '...and the window holds at least this many calls'),
    windowMs: setting('BREAKER_WINDOW_MS', int(1_000, 600_000, 10_000), 'the window the breaker counts calls in'),
    openMs: setting('BREAKER_OPEN_MS', int(100, 600_000, 30_000), 'how long the breaker stays open before one probe goes through'),
  }),
  shutdownGraceMs: setting('SHUTDOWN_GRACE_MS', int(0, 600_000, 10_000), 'how long in-flight operations may finish after SIGTERM'),
});

/** How the gateway survives a failing bank. */
export type ResilienceConfig = z.output<typeof resilienceGroup>;
/** A circuit breaker per upstream family. */
export type BreakerConfig = ResilienceConfig['breaker'];
