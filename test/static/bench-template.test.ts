import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fill } from '../../bench/report/template.ts';

/** The report's templates are filled strictly: neither side can name what the other lacks. */

describe('fill', () => {
  it('puts each value wherever its placeholder stands, and reads no value as a template', () => {
    expect(fill('{{runs}} runs of {{seconds}} s; {{runs}} again, {{note}}', { runs: 50, seconds: 5, note: 'kept as {{written}}' })).toBe(
      '50 runs of 5 s; 50 again, kept as {{written}}',
    );
  });

  it('throws naming a placeholder that has no value, and the template', () => {
    expect(() => fill('p50 {{p50}} ms, p99 {{p99}} ms', { p50: 1 }, 'bench/report/templates/x.md')).toThrow(
      'bench/report/templates/x.md: the placeholder {{p99}} has no value',
    );
  });

  it('throws naming each value the template never uses', () => {
    expect(() => fill('{{table}}', { table: '|a|', heapTabel: '|b|', seconds: 5 })).toThrow(
      'the template has no placeholder for {{heapTabel}}, {{seconds}}',
    );
  });

  it('throws on a placeholder it would not recognise, rather than leave it in the text', () => {
    expect(() => fill('the {{ heapTable }} here', { heapTable: '' })).toThrow('"{{ heapTable }} here" is not a placeholder');
    expect(() => fill('{{settings.seconds}} s', {})).toThrow('"{{settings.seconds}} s" is not a placeholder');
  });
});

describe('the templates of bench/report/templates/', () => {
  const TEMPLATES = new URL('../../bench/report/templates/', import.meta.url);

  it('wrap their prose at 100 characters, as the docs do', () => {
    const long = readdirSync(TEMPLATES).flatMap((file) =>
      readFileSync(new URL(file, TEMPLATES), 'utf8')
        .split('\n')
        .flatMap((line, index) => (line.length > 100 ? [`${file}:${index + 1}`] : [])),
    );
    expect(long).toEqual([]);
  });
});
