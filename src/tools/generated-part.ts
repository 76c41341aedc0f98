import { readFileSync, writeFileSync } from 'node:fs';

/**
 * What the docs tools share: a doc whose generated part sits between two marker lines, and the run
 * that writes the generated files, or with `--check` fails when they drift.
 */

export interface Markers {
  begin: string;
  end: string;
}

/** `doc` with the part between `markers` replaced by `content`. */
export function withGenerated(doc: string, markers: Markers, content: string, path: string): string {
  const begin = doc.indexOf(markers.begin);
  const end = doc.indexOf(markers.end);
  if (begin < 0 || end < begin) throw new Error(`${path} lacks the markers of its generated part`);
  return `${doc.slice(0, begin + markers.begin.length)}\n\n${content}\n\n${doc.slice(end)}`;
}

/** Writes each file whose text is not `text` (or, with `--check` in argv, fails naming them). */
export function writeOrCheck(wanted: { path: string; text: string }[], argv: string[], command: string, what: string): number {
  const stale = wanted.filter(({ path, text }) => readFileSync(path, 'utf8') !== text);
  if (argv.includes('--check')) {
    for (const { path } of stale) process.stderr.write(`${path} is out of date: run ${command}\n`);
    return stale.length === 0 ? 0 : 1;
  }
  for (const { path, text } of stale) writeFileSync(path, text);
  process.stdout.write(stale.length === 0 ? `${what} up to date\n` : `wrote ${stale.map(({ path }) => path).join(', ')}\n`);
  return 0;
}
