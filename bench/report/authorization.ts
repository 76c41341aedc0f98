/** The cost of authorization in the report: its target row, and its section (also what `npx node bench/authorization.ts` prints). */

import type { AuthorizationResult } from '../authorization-cost.ts';
import type { IdentityCosts } from '../authorization-identity.ts';
import type { ScreenScopeCost } from '../authorization-scopes.ts';
import { table, verdict } from './format.ts';
import { TARGETS } from './targets.ts';
import { template } from './template.ts';

/** Authorization's figures are hundredths of a millisecond: shown to the microsecond. */
const fine = (value: number): string => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const fineSigned = (value: number): string => `${value >= 0 ? '+' : '−'}${fine(Math.abs(value))}`;

/** Whole microseconds, as shown and as process.cpuUsage counts: verdicts agree with the figures printed. */
const micro = (ms: number): number => Math.round(ms * 1000);

/** A difference of medians this close to the A-vs-A floor is not told apart from chance. */
const NOISE_MULTIPLE = 2;

/** What the checks add to one screen: its difference of medians, counted as 0 when negative. */
const checksCost = (s: ScreenScopeCost): number => Math.max(0, s.difference);

/** A cost against the target: PASS or ABOVE, and whether the floor puts the target within reach of it. */
export function authorizationVerdict(costMs: number, floorMs: number): string {
  const target = TARGETS.authorizationMs;
  const word = micro(costMs) <= micro(target) ? '**PASS**' : '**ABOVE**';
  const close = Math.abs(micro(costMs) - micro(target)) <= micro(floorMs) ? ', within the floor of the target' : '';
  return `${fine(costMs)} ms: ${word}${close}`;
}

/** One screen: with and without the checks, their difference beside its floor, and the totals per credential. */
export function authorizationRow(s: ScreenScopeCost, identity: IdentityCosts): string[] {
  const near = Math.abs(micro(s.difference)) <= NOISE_MULTIPLE * micro(s.floor);
  return [
    s.name,
    `${s.checks.fields} ${s.checks.fields === 1 ? 'field' : 'fields'} + ${s.checks.records} records`,
    `${fine(s.checked.p50)} / ${fine(s.checked.p95)}`,
    `${fine(s.unchecked.p50)} / ${fine(s.unchecked.p95)}`,
    `${fineSigned(s.difference)}${near ? ' (within the noise)' : ''}`,
    fine(s.floor),
    authorizationVerdict(checksCost(s) + identity.apiKey.cpu.p50, s.floor),
    authorizationVerdict(checksCost(s) + identity.jwt.cpu.p50, s.floor),
  ];
}

/** Each screen's checks plus each credential's identity check; a mutation's identity plus its audit record. */
function operationTotals(a: AuthorizationResult): { name: string; apiKey: number; jwt: number }[] {
  const { apiKey, jwt } = a.identity;
  return [
    ...a.screens.map((s) => ({ name: s.name, apiKey: checksCost(s) + apiKey.cpu.p50, jwt: checksCost(s) + jwt.cpu.p50 })),
    { name: 'a mutation (identity + audit record)', apiKey: apiKey.cpu.p50 + a.audit.cpu.p50, jwt: jwt.cpu.p50 + a.audit.cpu.p50 },
  ];
}

/** The Targets table's row: every screen, and a mutation, under the target with either credential. */
export function authorizationTargetRow(a: AuthorizationResult): string[] {
  const target = micro(TARGETS.authorizationMs);
  const totals = operationTotals(a);
  const above = totals.filter((t) => micro(t.apiKey) > target || micro(t.jwt) > target).map((t) => t.name);
  return [
    `authorization ≤ ${TARGETS.authorizationMs} ms per operation at concurrency 1 (scope checks + identity; a mutation: identity + its audit record)`,
    `${totals.map((t) => `${t.name} ${fine(t.apiKey)} / ${fine(t.jwt)} ms`).join('; ')} (API key / JWT)`,
    verdict(above.length === 0, above.length === 0 ? 'every operation, with either credential' : `above: ${above.join(', ')}`),
  ];
}

const perCallText = (c: { cpu: { p50: number; p95: number }; wall: { p50: number } }): string =>
  `${fine(c.cpu.p50)} ms CPU (p95 ${fine(c.cpu.p95)}), ${fine(c.wall.p50)} ms elapsed`;

const authorizationTemplate = template('authorization.md');

/** The section "Authorization cost per operation" (also what `npx node bench/authorization.ts` prints). */
export function authorizationSection(a: AuthorizationResult): string {
  const { apiKey, jwt } = a.identity;
  const cached = a.screens.reduce((sum, s) => sum + s.reads.cached, 0);
  const bank = a.screens.reduce((sum, s) => sum + s.reads.bank, 0);
  const header = [
    'screen',
    'checks per run',
    'with checks p50 / p95',
    'without p50 / p95',
    'difference of medians',
    'noise floor (A vs A′)',
    `checks + API key (target ${TARGETS.authorizationMs} ms)`,
    `checks + JWT, seen before (target ${TARGETS.authorizationMs} ms)`,
  ];
  const reads =
    bank === 0
      ? 'Every read is a hit of the record cache, filled by the warm-up, so no I/O is timed:\n' +
        `${cached} reads from the cache and none from the bank during the measured runs.`
      : `**${bank} reads went to the bank during the measured runs** (${cached} from the cache):\nthose runs include bank I/O.`;
  const mutation = operationTotals(a).at(-1)!;
  return authorizationTemplate({
    reads,
    runs: a.screens[0]?.runs ?? 0,
    warmUpRuns: a.warmUpRuns,
    noiseMultiple: NOISE_MULTIPLE,
    screensTable: table(
      header,
      a.screens.map((s) => authorizationRow(s, a.identity)),
    ),
    batches: apiKey.batches,
    apiKeys: a.identity.apiKeys,
    apiKeyCost: perCallText(apiKey),
    jwtCost: perCallText(jwt),
    jwtFirstCost: perCallText(a.identity.jwtFirst),
    auditCost: perCallText(a.audit),
    mutationWithApiKey: authorizationVerdict(mutation.apiKey, 0),
    mutationWithJwt: authorizationVerdict(mutation.jwt, 0),
  });
}
