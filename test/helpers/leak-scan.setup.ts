import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { scan, scannedCount, secretCount } from './leak-scan.ts';

/** After each test file: nothing the gateway answered or logged may hold a secret (test/helpers/leak-scan.ts). */
afterAll(() => {
  const findings = scan();
  // LEAK_SCAN_REPORT=<file>: one line per test file with how much was scanned, for the figures.
  if (process.env.LEAK_SCAN_REPORT) {
    appendFileSync(process.env.LEAK_SCAN_REPORT, `${expect.getState().testPath} ${scannedCount()} ${secretCount()} ${findings.length}\n`);
  }
  if (findings.length > 0) {
    const lines = findings.slice(0, 10).map((f) => `  - ${f.what} in ${f.source}: …${f.excerpt}…`);
    throw new Error(`leak scan: ${findings.length} finding(s)\n${lines.join('\n')}`);
  }
});
