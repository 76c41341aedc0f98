/** Operations per client (CLIENT_RATE_LIMIT_*): how many operations one client may start per window, off by default. */

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
    windowSeconds: setting(
      'CLIENT_RATE_LIMIT_WINDOW_SECONDS',
      int(1, 86_400, 60),
      "the window they are counted in: fixed, from the client's first operation in it",
    ),
  },
);

/** Operations one client may start per window (0 = no limit). */
export type ClientRateLimitConfig = z.output<typeof clientRateLimitGroup>;
