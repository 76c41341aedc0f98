/**
 * `npx node bench/failover.ts`: how long a Redis failover keeps the bank's deliveries refused (docs/deployment.md,
 * "Failover"), FAILOVER_RUNS times (default 10) with each count of FAILOVER_BUSY_LOOPS (default "0,2") beside it.
 */

import { measureFailovers } from './failover-runs.ts';
import { failoverReport, failoverRunText } from './report/failover.ts';

const BUSY_LOOPS = (process.env.FAILOVER_BUSY_LOOPS ?? '0,2').split(',').map(Number);
/** FAILOVER_LOG=1 prints what the gateways and Sentinels said of Redis after each kill. */
const LOG = Boolean(process.env.FAILOVER_LOG);

const reports: string[] = [];
for (const busy of BUSY_LOOPS) {
  const runs = await measureFailovers(busy, (run, index) => process.stdout.write(failoverRunText(busy, index, run, LOG)));
  reports.push(failoverReport(busy, runs));
}
process.stdout.write(`\n${reports.join('\n\n')}\n`);
