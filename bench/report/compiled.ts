/**
 * Compiled execution in the report (issue 57): the gateway with graphql-jit beside the gateway as
 * shipped, in the same interleaved rounds, and the rule that adopts it or keeps it out.
 */

import type { CompiledTrial } from '../interleaved.ts';
import type { ScreenCpu } from '../screens-under-load.ts';
import { median } from '../stats.ts';
import { fixed, ms, table } from './format.ts';

/** The rule: at least this much lower CPU per operation… */
const COMPILED_CPU_GAIN = 0.15;
/** …on at least this many of the four screens, every answer byte for byte the same. */
const COMPILED_SCREENS_NEEDED = 2;

/** One screen of the trial: the ratio compiled ÷ shipped, round by round and its median. */
interface ScreenTrial {
  name: string;
  shipped: ScreenCpu;
  compiled: ScreenCpu;
  ratios: number[];
  ratio: number;
  same: boolean;
  /** The types whose isTypeOf checks its compilation left out (what makes it fall back in the product). */
  checkedTypes: string[];
  compileMs: number;
}

function screenTrials(trial: CompiledTrial, shipped: ScreenCpu[]): ScreenTrial[] {
  return trial.screens.flatMap((compiled) => {
    const gateway = shipped.find((s) => s.name === compiled.name);
    if (!gateway) return [];
    const byRound = compiled.cpuMsPerOpByRound ?? [compiled.cpuMsPerOp];
    const shippedByRound = gateway.cpuMsPerOpByRound ?? [gateway.cpuMsPerOp];
    const ratios = byRound.map((value, i) => value / shippedByRound[i]!);
    const document = trial.documents.find((d) => d.name === compiled.name);
    return [
      {
        name: compiled.name,
        shipped: gateway,
        compiled,
        ratios,
        ratio: median(ratios),
        same: document?.same ?? false,
        checkedTypes: document?.checkedTypes ?? [],
        compileMs: document?.compileMs ?? Number.NaN,
      },
    ];
  });
}

/** The decision the figures make, in one sentence. */
function decision(screens: ScreenTrial[]): string {
  const faster = screens.filter((s) => 1 - s.ratio >= COMPILED_CPU_GAIN);
  const identical = screens.every((s) => s.same);
  const runnable = screens.filter((s) => s.checkedTypes.length === 0);
  const gain = `${faster.length} of ${screens.length} screens ${Math.round(COMPILED_CPU_GAIN * 100)} % or more lower (${faster.map((s) => s.name).join(', ') || 'none'})`;
  const answers = identical ? 'every answer byte for byte the same' : 'answers differ';
  const adopt = runnable.filter((s) => 1 - s.ratio >= COMPILED_CPU_GAIN).length >= COMPILED_SCREENS_NEEDED && identical;
  return (
    `Upper bound, without the record checks: ${gain}, ${answers}. As the gateway would have to run it (a document that reads ` +
    `a type checked in isTypeOf goes to graphql-js): ${runnable.length} of ${screens.length} screens could compile, ` +
    `so compilation ${adopt ? 'would be adopted' : `stays out (it needs ${COMPILED_SCREENS_NEEDED} screens ${Math.round(COMPILED_CPU_GAIN * 100)} % lower)`}.`
  );
}

/** The trial's table and its decision. */
export function compiledSection(trial: CompiledTrial | null | undefined, shipped: ScreenCpu[] | null): string {
  if (!trial || !shipped) return 'Compiled execution was not tried in this run.';
  const screens = screenTrials(trial, shipped);
  const header = [
    'screen',
    'as shipped CPU ms/op',
    'compiled CPU ms/op',
    'compiled ÷ shipped, round by round',
    'median',
    'as shipped KB/op',
    'compiled KB/op',
    'answer byte for byte the same',
    'compiling it, first request',
    'types checked in isTypeOf it reads',
  ];
  const rows = screens.map((s) => [
    s.name,
    fixed(s.shipped.cpuMsPerOp),
    fixed(s.compiled.cpuMsPerOp),
    s.ratios.map((r) => fixed(r)).join(', '),
    `${fixed(s.ratio)}× (${Math.round((1 - s.ratio) * 100)} % lower)`,
    fixed(s.shipped.allocatedKbPerOp, 0),
    fixed(s.compiled.allocatedKbPerOp, 0),
    s.same ? 'yes' : 'no',
    `${ms(s.compileMs)} ms`,
    s.checkedTypes.join(', ') || 'none',
  ]);
  return `${table(header, rows)}\n\n${decision(screens)}`;
}
