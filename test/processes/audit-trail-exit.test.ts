import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditRecord } from '../helpers/audit-trail.ts';

/** The audit trail in a process of its own: what happens at exit is the process's (src/audit/trail.ts). */

const dir = mkdtempSync(join(tmpdir(), 'audit-trail-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the audit trail in a file', () => {
  it('lets the process exit cleanly after a file it could not open', () => {
    const regularFile = join(dir, 'in-the-way');
    writeFileSync(regularFile, '');
    // pino flushes its destinations synchronously at exit, in the main thread only: hence a process.
    const script = `
      import { createAuditTrail } from ${JSON.stringify(new URL('../../src/audit/trail.ts', import.meta.url).pathname)};
      import { silentLogger } from ${JSON.stringify(new URL('../../src/platform/logger.ts', import.meta.url).pathname)};
      let failed = 0;
      const trail = createAuditTrail({ destination: { kind: 'file', path: ${JSON.stringify(join(regularFile, 'audit.log'))} }, logger: silentLogger, observer: { written() {}, failed: () => void failed++ } });
      trail.write(${JSON.stringify(auditRecord())});
      const wait = setInterval(() => { if (failed) { clearInterval(wait); console.log('failed', failed); } }, 10);
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(child.stdout).toBe('failed 1\n');
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
  });
});
