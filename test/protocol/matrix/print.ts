import type { Verdict } from './judge.ts';
import type { Row } from './rows.ts';
import type { Form, Way } from './ways.ts';

/** One cell as it ended: its verdict, or why its client cannot send it. */
export interface CellRecord {
  row: Row;
  way: Way;
  form: Form;
  verdict?: Verdict;
  notApplicable?: string;
}

const FORM_NAMES: Record<Form, string> = { text: 'text', apq: 'hash', trusted: 'id' };

/**
 * The matrix as a Markdown table: a row per document, a column per way in; a cell says how the way
 * answered (`one`, `parts`, `live`, `event`, or the refusal's code), marked ✗ where that was not what
 * the row and the way call for, and names the forms it was sent in when not all three. Under it,
 * what each client cannot send, and why. docs/frontend.md shows it as the test last printed it.
 */
export function matrixTable(rows: readonly Row[], ways: readonly Way[], records: readonly CellRecord[]): string {
  const header = ['document', ...ways.map((way) => way.name)];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cells = ways.map((way) => cellText(records.filter((record) => record.row === row && record.way === way)));
    lines.push(`| ${row.group}: ${row.name}${row.operationName ? ` (${row.operationName})` : ''} | ${cells.join(' | ')} |`);
  }
  const reasons = ways.flatMap((way) => {
    const why = [...new Set(records.filter((record) => record.way === way && record.notApplicable).map((record) => record.notApplicable!))];
    return why.length > 0 ? [`- ${way.name}, not sent (—): ${why.join('; ')}.`] : [];
  });
  return [...lines, '', ...reasons].join('\n');
}

/** The table with how each column was driven and every cell not as expected: what `npm run test -- matrix` prints. */
export function printedMatrix(rows: readonly Row[], ways: readonly Way[], records: readonly CellRecord[]): string {
  const run = records.filter((record) => record.verdict);
  const failed = run.filter((record) => record.verdict!.problems.length > 0);
  return [
    `The matrix: ${run.length} cells run, ${failed.length} not as expected (✗). Forms: text, hash (an automatic persisted query), id (a trusted document).`,
    '',
    matrixTable(rows, ways, records),
    '',
    ...ways.map((way) => `- ${way.name}: ${way.client}.`),
    ...failed.map(
      (record) =>
        `- ✗ ${record.row.group}: ${record.row.name}, ${record.way.name}, ${FORM_NAMES[record.form]}: ${record.verdict!.problems.join('; ')}`,
    ),
  ].join('\n');
}

function cellText(records: readonly CellRecord[]): string {
  const run = records.filter((record) => record.verdict);
  if (run.length === 0) return records.length > 0 ? '—' : '';
  const shown = [...new Set(run.map((record) => record.verdict!.shown))];
  const failed = run.some((record) => record.verdict!.problems.length > 0) ? '✗ ' : '';
  const forms = run.length === 3 ? '' : ` (${run.map((record) => FORM_NAMES[record.form]).join(', ')})`;
  if (shown.length === 1) return `${failed}${shown[0]}${forms}`;
  return `${failed}${run.map((record) => `${FORM_NAMES[record.form]}: ${record.verdict!.shown}`).join(', ')}`;
}
