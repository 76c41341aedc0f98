/**
 * `npx node bench/redis-capacity.ts` (docs/deployment.md, "Capacity"): redis-event-load.ts's rows, printed as tables.
 * REDIS_BENCH_SECONDS (default 5), REDIS_BENCH_INSTANCES (default "2,8,32") and REDIS_BENCH_RATES (events/s, default "500,1000,2000,4000,max") tune it.
 */

import { measureRedisCapacity } from './redis-event-load.ts';
import { redisCapacityReport } from './report/redis-capacity.ts';

process.stdout.write(redisCapacityReport(await measureRedisCapacity()));
