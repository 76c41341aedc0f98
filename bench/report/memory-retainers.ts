/** What `npx node bench/memory-retainers.ts` prints: the gateway's and bare Yoga's heap by retainer, idle and under each screen. */

import { RETAINER_CATEGORIES, type RetainerCategory } from '../heap-retainers.ts';
import { fixed, table } from './format.ts';

/** A snapshot's attribution in MB. */
export interface RetainerFigures {
  /** MB per category (bench/heap-snapshot.ts, RETAINER_CATEGORIES). */
  mb: Record<RetainerCategory, number>;
  /** The snapshot's JS heap, MB: everything in it but `off-heap`, live after the exhaustive collection a snapshot makes. */
  heapMb: number;
  /**
   * The heap in use after a regular full collection, taken just before the snapshot (ServerProcess.liveHeapMb, what
   * the live-heap target reads), MB: over `heapMb` by what only an exhaustive collection frees.
   */
  liveHeapMb: number;
  /** What `other` holds, by constructor, largest first. */
  otherTop: { name: string; mb: number }[];
  /** Compiled code and module source per package, largest first. */
  codeByPackage: { name: string; codeMb: number; sourceMb: number }[];
}

/** What bench/memory-retainers.ts's measureRetainers returns for one server: its snapshots, idle (started, every screen run once) and mid-load under each screen. */
export interface ServerRetainers {
  server: string;
  connections: number;
  /** How far into each screen's run its snapshot was taken, ms. */
  snapshotAfterMs: number;
  idle: RetainerFigures;
  underLoad: { screen: string; figures: RetainerFigures }[];
}

/** MB to one decimal. */
const mb1 = (value: number): string => fixed(value, 1);

/** A difference in MB, signed. */
const delta = (value: number): string => `${value >= 0 ? '+' : '−'}${fixed(Math.abs(value), 1)}`;

/** The snapshot under load with the most JS heap, and its screen. */
function largestUnderLoad(server: ServerRetainers): { screen: string; figures: RetainerFigures } {
  return server.underLoad.reduce((top, run) => (run.figures.heapMb > top.figures.heapMb ? run : top));
}

/**
 * Rows = retainer categories (and the JS heap, off-heap left out), columns = the gateway idle and
 * under each screen, bare Yoga idle and under its heaviest screen, and the gateway's excess over
 * bare Yoga idle and under load (each under its heaviest screen).
 */
function retainersTable(gateway: ServerRetainers, bare: ServerRetainers): string {
  const gatewayLargest = largestUnderLoad(gateway);
  const bareLargest = largestUnderLoad(bare);
  const header = [
    'retainer (MB)',
    `${gateway.server} idle`,
    ...gateway.underLoad.map((run) => `${gateway.server}: ${run.screen}`),
    `${bare.server} idle`,
    `${bare.server}: ${bareLargest.screen}`,
    'excess idle',
    'excess under load',
  ];
  const columns = [gateway.idle, ...gateway.underLoad.map((run) => run.figures), bare.idle, bareLargest.figures];
  const row = (label: string, pick: (figures: RetainerFigures) => number) => [
    label,
    ...columns.map((figures) => mb1(pick(figures))),
    delta(pick(gateway.idle) - pick(bare.idle)),
    delta(pick(gatewayLargest.figures) - pick(bareLargest.figures)),
  ];
  return table(header, [
    ...RETAINER_CATEGORIES.map((category) => row(category, (figures) => figures.mb[category])),
    row('**JS heap** (all but off-heap)', (figures) => figures.heapMb),
    row('freed only by an exhaustive collection', (figures) => figures.liveHeapMb - figures.heapMb),
    row('**live heap** after a full collection', (figures) => figures.liveHeapMb),
  ]);
}

/** Compiled code and module source per package, the gateway's idle beside bare Yoga's (packages in either's largest). */
function codeByPackageTable(gateway: ServerRetainers, bare: ServerRetainers): string {
  const names = [...new Set([...gateway.idle.codeByPackage, ...bare.idle.codeByPackage].map((row) => row.name))];
  const of = (server: ServerRetainers, name: string) => server.idle.codeByPackage.find((row) => row.name === name);
  const total = (name: string) => (of(gateway, name)?.codeMb ?? 0) + (of(gateway, name)?.sourceMb ?? 0);
  const cell = (value: number | undefined) => (value === undefined ? '–' : mb1(value));
  const rows = names
    .sort((a, b) => total(b) - total(a))
    .map((name) => [
      name,
      cell(of(gateway, name)?.codeMb),
      cell(of(gateway, name)?.sourceMb),
      cell(of(bare, name)?.codeMb),
      cell(of(bare, name)?.sourceMb),
    ]);
  return table(
    ['package (idle, MB)', `${gateway.server} code`, `${gateway.server} source`, `${bare.server} code`, `${bare.server} source`],
    rows,
  );
}

/** What `other` holds in a server idle, by constructor. */
function otherLine(server: ServerRetainers): string {
  return `${server.server}'s "other", idle, by constructor: ${server.idle.otherTop.map((row) => `${row.name} ${mb1(row.mb)}`).join(', ')}`;
}

/** The tables and the contents of `other`, as `npx node bench/memory-retainers.ts` prints them. */
export function retainersLines(gateway: ServerRetainers, bare: ServerRetainers): string[] {
  return [
    `Heap by retainer, idle and ${gateway.snapshotAfterMs} ms into a run of each screen at c=${gateway.connections}: heap snapshots,` +
      ' each object counted once, under the first retainer up its dominator chain; under load, what the run added that no' +
      " store claims is the in-flight requests'. The live heap is read just before each snapshot, after a regular full" +
      " collection; the first snapshot's exhaustive one frees for good what only it frees, so later ones show none.\n",
    retainersTable(gateway, bare),
    '\nCompiled code and module source per package, idle\n',
    codeByPackageTable(gateway, bare),
    '',
    otherLine(gateway),
    otherLine(bare),
  ];
}
