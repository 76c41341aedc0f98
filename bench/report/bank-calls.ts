import type { EstimateCost } from '../bank-call-estimate.ts';
import { fixed, verdict } from './format.ts';
import type { Shipped } from './shipped.ts';
import { TARGETS } from './targets.ts';

/** The target row of the bank-call estimate's cost: the cards screen's, once cached, beside the screen's own CPU per operation. */
export function estimateCostRow(costs: EstimateCost[], shipped: Shipped | null): string[] {
  const what = `pricing an operation in bank calls ≤ ${TARGETS.estimateMs} ms of CPU on the cards screen, once cached`;
  const cards = costs.find((cost) => cost.name.startsWith('cards screen'));
  if (!cards) return [what, 'the cards screen was not measured', verdict(false, 'no figure')];
  const own = shipped?.screens.find((screen) => screen.name === cards.name)?.cpuMsPerOp;
  const beside = own === undefined ? '' : `; the screen's own CPU per operation at c=50, as shipped: ${fixed(own, 2)} ms`;
  const each = costs.map((cost) => `${cost.name} ${fixed(cost.cachedMs, 4)} ms (first ${fixed(cost.firstMs, 3)} ms, ${cost.calls} calls)`);
  const met = cards.cachedMs <= TARGETS.estimateMs;
  return [
    what,
    `${each.join('; ')}${beside}`,
    verdict(met, met ? `${fixed(TARGETS.estimateMs - cards.cachedMs, 4)} ms to spare` : 'above'),
  ];
}
