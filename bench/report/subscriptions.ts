/** Subscription fan-out in the report: its targets against the WebSocket floor, and the delivery tables. */

import type { DeliveryPass, Passes, SubscriptionResult } from '../subscriptions.ts';
import { bareAloneOver, ms, table, verdict } from './format.ts';
import { TARGETS } from './targets.ts';

/**
 * measured vs floor, the ratio, and the verdict against `ratio` (default TARGETS.fanoutFloorRatio)
 * times the floor's p99 plus `plus` ms (what the gateway must wait for that the floor does not; 0 by
 * default); `last` names the gateway's last receipt, `lead` comes before the figures; `bare`, bare
 * Yoga's pass (graphql-yoga with graphql-ws alone), is set beside them.
 */
export function floorRow(
  target: string,
  gateway: DeliveryPass | null,
  floor: DeliveryPass | null,
  {
    ratio = TARGETS.fanoutFloorRatio,
    last = 'last receipt',
    lead = '',
    bare = null,
    plus = 0,
  }: { ratio?: number; last?: string; lead?: string; bare?: DeliveryPass | null; plus?: number } = {},
): string[] {
  if (!gateway || !floor) return [target, 'not run (BENCH_PACED_EVENTS=0)', '**not measured**'];
  const measured = gateway.lastReceipt.p99;
  const limit = ratio * (floor.lastReceipt.p99 + plus);
  // An event some subscriber never got has no last receipt: its time is infinite, and so is the p99 once it counts.
  if (!Number.isFinite(measured) || !Number.isFinite(limit)) {
    const p99 = (value: number) => (Number.isFinite(value) ? `${ms(value)} ms` : 'none (receipts lost)');
    return [
      target,
      `${lead}POST → ${last} p99: gateway ${p99(measured)}, floor ${p99(floor.lastReceipt.p99)}`,
      verdict(false, 'receipts lost'),
    ];
  }
  const met = measured <= limit;
  const bareP99 = bare?.lastReceipt.p99 ?? Number.NaN;
  const bareText = bare
    ? `; bare Yoga with graphql-ws on the same pass ${ms(bareP99)} ms (${(bareP99 / floor.lastReceipt.p99).toFixed(2)}×)`
    : '';
  return [
    target,
    `${lead}POST → ${last} p99 ${ms(measured)} ms vs floor ${ms(floor.lastReceipt.p99)} ms (${(measured / floor.lastReceipt.p99).toFixed(2)}×)${bareText}`,
    verdict(
      met,
      met
        ? `${ms(limit - measured)} ms to spare under ${ms(limit)} ms`
        : `${ms(measured - limit)} ms over ${ms(limit)} ms${bareAloneOver(bareP99, limit)}`,
    ),
  ];
}

/** The fan-out targets: against the floor of the same run, one event at a time and in a burst, and nothing lost. */
export function fanoutRows(s: SubscriptionResult): string[][] {
  const g = s.gateway;
  const f = s.floor;
  const ratio = TARGETS.fanoutFloorRatio;
  const lost = (p: Passes) => (p.paced?.lost ?? 0) + p.burst.lost;
  const expected = (p: Passes) => ((p.paced?.events ?? 0) + p.burst.events) * s.subscribers;
  const gatewayLost = lost(g);
  return [
    floorRow(`fan-out p99, one event at a time ≤ ${ratio}× floor, ${s.subscribers} subscribers`, g.paced, f.paced, { bare: s.bare.paced }),
    floorRow(`fan-out p99, burst of ${g.burst.events} ≤ ${ratio}× floor, ${s.subscribers} subscribers`, g.burst, f.burst, {
      bare: s.bare.burst,
    }),
    [
      '0 lost',
      `gateway: ${gatewayLost} of ${expected(g)} receipts lost, ${g.subscriptionErrors} subscription errors; floor: ${lost(f)} of ${expected(f)}`,
      gatewayLost === 0 && g.subscriptionErrors === 0
        ? verdict(true, 'every subscriber got every event')
        : verdict(false, `${gatewayLost} receipts never came, ${g.subscriptionErrors} subscriptions failed`),
    ],
  ];
}

export const DELIVERY_HEADER = [
  'server',
  'pass',
  'events',
  'receipts',
  'lost',
  'duplicates',
  'per receipt p50',
  'per receipt p99',
  'per receipt max',
  'last receipt p50',
  'last receipt p99',
  'first POST → last receipt',
  'POST → 202 p50',
];

/** One pass in the subscriptions' and live queries' tables; the floor has no intake. */
export const deliveryRow = (server: string, name: string, p: DeliveryPass, intake: boolean): string[] => [
  server,
  name,
  String(p.events),
  String(p.latency.count),
  String(p.lost),
  String(p.duplicates),
  ms(p.latency.p50),
  ms(p.latency.p99),
  ms(p.latency.max),
  ms(p.lastReceipt.p50),
  ms(p.lastReceipt.p99),
  `${ms(p.spanMs)} ms`,
  intake ? ms(p.intake.p50) : '',
];

export function subscriptionsTable(s: SubscriptionResult): string {
  // The floor sends with no POST: it has no intake to show.
  const rows = (server: string, passes: Passes, intake = true) => [
    ...(passes.paced ? [deliveryRow(server, 'one at a time', passes.paced, intake)] : []),
    deliveryRow(server, 'burst (all at once)', passes.burst, intake),
  ];
  return table(DELIVERY_HEADER, [
    ...rows('gateway', s.gateway),
    ...rows('floor: bare ws server', s.floor, false),
    ...rows('bare Yoga with graphql-ws (POST /publish)', s.bare),
  ]);
}
