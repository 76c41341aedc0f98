/** Operations and bank calls per client (CLIENT_RATE_LIMIT_*, CLIENT_BANK_CALL_BUDGET): what one client may start and spend per window, off by default. */

import { group, int, setting } from '@banking-gateway/settings';
import type { z } from 'zod';

export const clientRateLimitGroup = group(
  'Operations per client',
  "A client (API key name, JWT subject, the bank user behind a passthrough token, or an anonymous caller's remote address) may start this many operations per window; the next is refused before execution with `RATE_LIMITED` (HTTP 429 and `Retry-After`). Counted in Redis with `REDIS_URL`, so the limit spans every instance. Off by default. See [operations.md](operations.md#fair-share-per-client).",
  {
    operations: setting(
      'CLIENT_RATE_LIMIT_OPERATIONS',
      int(0, 1_000_000, 0),
      'operations (queries, mutations, subscriptions started) one client may start per window; `0`: no limit',
      '`0` (off)',
    ),
    bankCallBudget: setting(
      'CLIENT_BANK_CALL_BUDGET',
      int(0, 100_000_000, 0),
      "bank calls one client's operations may cost per window: each is charged its estimate before it runs (over the budget: `RATE_LIMITED`, nothing sent to the bank) and given back what it did not spend when it ends; `0`: no budget",
      '`0` (off)',
    ),
    windowSeconds: setting(
      'CLIENT_RATE_LIMIT_WINDOW_SECONDS',
      int(1, 86_400, 60),
      "the window operations and bank calls are counted in: fixed, from the client's first operation in it",
    ),
  },
);

/** Operations and bank calls one client may start and spend per window (0 = no limit). */
export type ClientRateLimitConfig = z.output<typeof clientRateLimitGroup>;
