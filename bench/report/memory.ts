/** Memory in the report: each phase's peaks, and the gateway's over the run. */

import type { MemoryReport } from '../memory.ts';
import { mb, table } from './format.ts';

export function memoryTable(m: MemoryReport): string {
  return table(
    ['phase', 'gateway process RSS', 'its V8 heap used', 'its V8 heap reserved', ...m.children.map((c) => `${c} RSS`)],
    m.phases.map((p) => [p.phase, mb(p.gatewayMb), mb(p.heapUsedMb), mb(p.heapTotalMb), ...p.childrenMb.map(mb)]),
  );
}

/** The gateway process's highest sampled RSS over every phase, MB; null when nothing was sampled. */
export function gatewayPeakMb(m: MemoryReport): number | null {
  return m.phases.length > 0 ? Math.max(...m.phases.map((p) => p.gatewayMb)) : null;
}
