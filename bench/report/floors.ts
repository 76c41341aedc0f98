/** What `npx node bench/bare-yoga.ts` and `npx node bench/stack-floor.ts` print: each floor per screen beside the gateway. */

import type { BareOneCall } from '../overhead.ts';
import type { Compared } from '../interleaved.ts';
import type { AnswerCheck } from '../same-answers.ts';
import type { BareFloor, ScreenCpu } from '../screens-under-load.ts';
import { table } from './format.ts';

/** Bare Yoga per screen (its calls and rounds against the gateway's, req/s, CPU and bytes per operation), the gateway's beside it where measured. */
function bareYogaTable(checks: AnswerCheck[], bare: ScreenCpu[], gateway: ScreenCpu[] | undefined): string {
  const header = [
    'screen',
    'calls',
    'rounds gw/bare',
    'bare req/s',
    'bare CPU ms/op',
    'bare KB/op',
    ...(gateway ? ['gateway req/s', 'gateway CPU ms/op', 'gateway KB/op', 'gateway/bare CPU'] : []),
    'errors',
  ];
  const rows = bare.map((b, i) => {
    const g = gateway?.[i];
    const c = checks[i];
    return [
      b.name,
      String(c?.calls ?? ''),
      c ? `${c.gatewayRounds}/${c.floorRounds}` : '',
      b.rps.toFixed(0),
      b.cpuMsPerOp.toFixed(2),
      b.allocatedKbPerOp.toFixed(0),
      ...(g
        ? [g.rps.toFixed(0), g.cpuMsPerOp.toFixed(2), g.allocatedKbPerOp.toFixed(0), (g.cpuMsPerOp / b.cpuMsPerOp).toFixed(1) + 'x']
        : []),
      g ? `${b.errors}/${g.errors}` : String(b.errors),
    ];
  });
  return table(header, rows);
}

export interface BareYogaRun {
  checks: AnswerCheck[];
  bare: BareFloor;
  /** The gateway measured the same way, unless BARE_YOGA_GATEWAY=off. */
  gateway: ScreenCpu[] | undefined;
  oneCall: BareOneCall;
  gatewayPeakRssMb: number;
}

/** The table, the one-call probe, and both processes' peak RSS. */
export function bareYogaLines(run: BareYogaRun): string[] {
  const { oneCall, bare } = run;
  return [
    bareYogaTable(run.checks, bare.screens, run.gateway),
    `the one-call probe at c=${oneCall.connections}: direct p50 ${oneCall.direct.latency.p50.toFixed(2)} ms, bare Yoga ${oneCall.bare.latency.p50.toFixed(2)} ms`,
    `peak RSS: bare Yoga ${bare.peakRssMb.toFixed(0)} MB, gateway ${run.gatewayPeakRssMb.toFixed(0)} MB (the gateway's includes its setup and its own screens' runs)`,
  ];
}

const SERVERS: readonly Compared[] = ['bare', 'stack', 'gateway'];

/** Per screen: the three's median CPU ms/op and KB/op, and their ratios. */
function stackFloorTable(screens: [string, Record<Compared, ScreenCpu>][]): string {
  const header = [
    'screen',
    'CPU ms/op bare',
    'stack',
    'gateway',
    'stack/bare',
    'gateway/bare',
    'gateway/stack',
    'KB/op bare',
    'stack',
    'gateway',
    'stack/bare',
    'gateway/bare',
    'gateway/stack',
    'errors',
  ];
  const rows = screens.map(([name, medians]) => {
    const of = (pick: (run: ScreenCpu) => number) =>
      Object.fromEntries(SERVERS.map((server) => [server, pick(medians[server])])) as Record<Compared, number>;
    const ratios = (m: Record<Compared, number>) =>
      [m.stack / m.bare, m.gateway / m.bare, m.gateway / m.stack].map((r) => `${r.toFixed(2)}x`);
    const cpu = of((run) => run.cpuMsPerOp);
    const kb = of((run) => run.allocatedKbPerOp);
    const errors = SERVERS.map((server) => medians[server].errors).join('/');
    return [
      name,
      cpu.bare.toFixed(2),
      cpu.stack.toFixed(2),
      cpu.gateway.toFixed(2),
      ...ratios(cpu),
      kb.bare.toFixed(0),
      kb.stack.toFixed(0),
      kb.gateway.toFixed(0),
      ...ratios(kb),
      errors,
    ];
  });
  return table(header, rows);
}

export interface StackFloorRun {
  rounds: number;
  connections: number;
  /** Each screen's medians of the rounds, per server (errors summed). */
  screens: [string, Record<Compared, ScreenCpu>][];
  peakRssMb: Record<Compared, number>;
}

/** What the rounds were, the table, and the three processes' peak RSS. */
export function stackFloorLines(run: StackFloorRun): string[] {
  const peak = run.peakRssMb;
  return [
    `Medians of ${run.rounds} interleaved rounds at c=${run.connections} (errors: bare/stack/gateway, summed)\n`,
    stackFloorTable(run.screens),
    `\npeak RSS: bare Yoga ${peak.bare.toFixed(0)} MB, stack floor ${peak.stack.toFixed(0)} MB, gateway ${peak.gateway.toFixed(0)} MB (the gateway's includes issuing the cards)`,
  ];
}
