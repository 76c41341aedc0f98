/** Heap sizing in the report: the shipped flags' throughput against the best configuration, the sweep's table, and what `npx node bench/heap.ts` prints. */

import type { HeapConfigResult } from '../heap-sizing.ts';
import { fixed, table, verdict } from './format.ts';
import { SHIPPED_TARGETS } from './targets.ts';

const shippedOf = (heap: HeapConfigResult[]) => heap.find((config) => config.shipped);

export function heapRows(heap: HeapConfigResult[]): string[][] {
  const shipped = shippedOf(heap);
  if (!shipped) return [['heap sizing as shipped', 'the shipped flags were not measured', verdict(false, 'no figure')]];
  return shipped.screens.map((screen) => {
    const best = heap.reduce(
      (top, config) => {
        const rps = config.screens.find((s) => s.screen === screen.screen)?.rps ?? 0;
        return rps > top.rps ? { rps, label: config.label } : top;
      },
      { rps: 0, label: '' },
    );
    const share = screen.rps / best.rps;
    return [
      `as shipped, c=50 throughput ≥ ${SHIPPED_TARGETS.throughputOfBest * 100} % of the best heap configuration: ${screen.screen}`,
      `${fixed(screen.rps, 0)} req/s vs ${fixed(best.rps, 0)} (${best.label}): ${Math.round(share * 100)} %; ` +
        `peak RSS ${fixed(shipped.peakRssMb, 0)} MB`,
      verdict(share >= SHIPPED_TARGETS.throughputOfBest, share >= 1 ? 'the best' : `${Math.round((1 - share) * 100)} % below`),
    ];
  });
}

export function heapTable(heap: HeapConfigResult[]): string {
  const screens = heap[0]?.screens.map((s) => s.screen) ?? [];
  const header = ['heap configuration', 'flags', 'peak RSS', ...screens.map((s) => `${s}: req/s, CPU ms/op, KB allocated/op`)];
  const rows = heap.map((config) => [
    `${config.label}${config.shipped ? ' **(shipped)**' : ''}`,
    config.flags.length > 0 ? `\`${config.flags.join(' ')}\`` : 'none',
    `${fixed(config.peakRssMb, 0)} MB`,
    ...screens.map((name) => {
      const s = config.screens.find((screen) => screen.screen === name);
      if (!s) return 'n/a';
      const errors = s.errors > 0 ? ` (${s.errors} errors)` : '';
      return `${fixed(s.rps, 0)}, ${fixed(s.cpuMsPerOp)}, ${fixed(s.allocatedKbPerOp, 0)}${errors}`;
    }),
  ]);
  return table(header, rows);
}

/** Each configuration's peak RSS (the shipped one starred), then its screens' throughput, CPU and bytes per operation. */
export function heapLines(heap: HeapConfigResult[]): string[] {
  return heap.flatMap((config) => [
    `${config.shipped ? '* ' : '  '}${config.label}: peak RSS ${config.peakRssMb.toFixed(0)} MB`,
    ...config.screens.map(
      (s) =>
        `    ${s.screen.padEnd(26)} ${s.rps.toFixed(0).padStart(5)} req/s  ${s.cpuMsPerOp.toFixed(2)} ms CPU/op  ${s.allocatedKbPerOp.toFixed(0)} KB/op  ${s.errors} errors`,
    ),
  ]);
}
