/** Live queries (LIVE_QUERY_*): how often one may be pushed, and how many a caller and a connection may hold open. */

import { group, int, setting } from '@banking-gateway/settings';
import type { z } from 'zod';

export const liveQueriesGroup = group(
  'Live queries',
  'Queries sent with `@live`: re-run when a bank event or a write touches what they read, and pushed whole when their result changed. See [operations.md](operations.md#live-queries).',
  {
    throttleMs: setting(
      'LIVE_QUERY_THROTTLE_MS',
      int(0, 60_000, 250),
      'the least time between two pushes of one live query: a burst of events in it is one re-run; a client may ask for more with `@live(throttle:)`, never less',
    ),
    maxPerCaller: setting(
      'LIVE_QUERY_MAX_PER_CALLER',
      int(1, 100_000, 100),
      'live queries one caller (API key, JWT subject, bank user, or anonymous address) may hold open on one instance; the next ends with `LIVE_QUERY_LIMIT`',
    ),
    maxPerConnection: setting(
      'LIVE_QUERY_MAX_PER_CONNECTION',
      int(1, 10_000, 25),
      'live queries one connection (a WebSocket, or an HTTP connection) may hold open; the next ends with `LIVE_QUERY_LIMIT`',
    ),
  },
);

/** Live queries: their push interval and how many one caller and one connection may hold open. */
export type LiveQueryConfig = z.output<typeof liveQueriesGroup>;
