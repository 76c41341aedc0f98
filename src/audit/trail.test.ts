import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { auditRecord, capturedLog, countingObserver, memoryStdout, useTrails } from '../../test/helpers/audit-trail.ts';
import { freePort } from '../../test/helpers/redis.ts';
import type { AuditRecord } from './record.ts';

const { openTrail, directory } = useTrails();

describe('the audit trail on stdout and in a file', () => {
  it('writes each record as one JSON line holding exactly the record', () => {
    const stdout = memoryStdout();
    const { counts, observer } = countingObserver();
    const trail = openTrail({ destination: { kind: 'stdout' }, stdout, observer });
    const first = auditRecord();
    const second = auditRecord({
      field: 'cardFreeze',
      targets: { cardId: 'card_3x' },
      outcome: 'forbidden',
      permission: 'cards:write',
      result: null,
      requestId: 'req-2',
    });

    trail.write(first);
    trail.write(second);

    expect(stdout.lines).toHaveLength(2);
    expect(stdout.lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    expect(JSON.parse(stdout.lines[0]!)).toStrictEqual(first);
    expect(JSON.parse(stdout.lines[1]!)).toStrictEqual(second);
    expect(counts.written.stdout).toBe(2);
  });

  it('appends lines to the file, creating its directory, and keeps what the file already held', async () => {
    const earlier = `${JSON.stringify(auditRecord({ requestId: 'req-earlier' }))}\n`;
    const existing = join(directory(), 'existing.log');
    writeFileSync(existing, earlier);
    const fresh = join(directory(), 'new', 'nested', 'audit.log');
    const { counts, observer } = countingObserver();
    const records = [
      auditRecord({ requestId: 'req-a' }),
      auditRecord({ requestId: 'req-b', outcome: 'bank_rejection', detail: 'INSUFFICIENT_FUNDS' }),
    ];

    for (const path of [existing, fresh]) {
      const trail = openTrail({ destination: { kind: 'file', path }, observer });
      for (const record of records) trail.write(record);
      await trail.close();
      // A second close has nothing left to do and must not fail.
      await trail.close();
    }

    expect(readFileSync(existing, 'utf8')).toBe(earlier + records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    expect(
      readFileSync(fresh, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toStrictEqual(records);
    expect(counts).toEqual({ written: { stdout: 0, file: 4, redis: 0 }, failed: { stdout: 0, file: 0, redis: 0 } });
  });

  it('survives a file it cannot open: counts the records, warns once, never throws', async () => {
    const regularFile = join(directory(), 'not-a-directory');
    writeFileSync(regularFile, '');
    const log = capturedLog();
    const { counts, observer } = countingObserver();
    const trail = openTrail({ destination: { kind: 'file', path: join(regularFile, 'audit.log') }, logger: log.logger, observer });

    expect(() => trail.write(auditRecord({ requestId: 'req-lost-1' }))).not.toThrow();
    await vi.waitFor(() => expect(counts.failed.file).toBe(1));
    for (const requestId of ['req-lost-2', 'req-lost-3', 'req-lost-4']) expect(() => trail.write(auditRecord({ requestId }))).not.toThrow();
    await vi.waitFor(() => expect(counts.failed.file).toBe(4));

    const warnings = log.warnings(/audit records are not reaching/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toBe(
      `audit records are not reaching ${join(regularFile, 'audit.log')}, and go nowhere else: they are lost while it is away`,
    );
    // Enough to find the record elsewhere, nothing more of it.
    expect(warnings[0]!.record).toStrictEqual({ field: 'payoutCreate', outcome: 'success', requestId: 'req-lost-1' });
    expect(JSON.stringify(log.lines)).not.toContain('ben_8f2k');
    expect(counts.written.file).toBe(0);
    await trail.close();
  });

  it('never writes a card number: the digits are replaced, the rest of the record kept, and it warns once', () => {
    const stdout = memoryStdout();
    const log = capturedLog();
    const trail = openTrail({ destination: { kind: 'stdout' }, stdout, logger: log.logger });
    // A caller's own x-request-id is kept as the record's clientRequestId: it could be a card number too.
    const leaking = auditRecord({
      clientRequestId: '378282246310005',
      traceId: 'ab4111111111111111cdef0123456789',
      targets: { cardId: '4111111111111111', beneficiaryId: 'ben_8f2k', reference: '4111111111111112' },
    });

    trail.write(leaking);
    trail.write(auditRecord({ requestId: 'req-2', targets: { cardId: '5555555555554444' } }));

    expect(stdout.lines.join('')).not.toMatch(/"4111111111111111"|378282246310005|5555555555554444/);
    // Not a card number (fails the Luhn check), and a trace id's digits: both written as they are.
    expect(JSON.parse(stdout.lines[0]!)).toStrictEqual({
      ...leaking,
      clientRequestId: '[redacted]',
      targets: { cardId: '[redacted]', beneficiaryId: 'ben_8f2k', reference: '4111111111111112' },
    });
    expect(JSON.parse(stdout.lines[1]!)).toStrictEqual(auditRecord({ requestId: 'req-2', targets: { cardId: '[redacted]' } }));
    const warnings = log.warnings(/card number/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.record).toStrictEqual({ field: 'payoutCreate', outcome: 'success', requestId: 'req-1' });
    expect(JSON.stringify(log.lines)).not.toMatch(/378282246310005|4111111111111111|5555555555554444/);
  });

  it('writes access-denied records beside the mutation records, and the counts it holds when closed', async () => {
    const stdout = memoryStdout();
    const trail = openTrail({ destination: { kind: 'stdout' }, stdout });
    const attempt = { reason: 'UNAUTHENTICATED', transport: 'http', caller: null, address: '203.0.113.7', requestId: 'req-401' };
    trail.denied(attempt);
    trail.denied({ ...attempt, requestId: 'req-401-again' });
    trail.write(auditRecord());
    await trail.close();

    const lines = stdout.lines.map((line) => JSON.parse(line) as AuditRecord);
    expect(lines.map((line) => [line.audit, line.requestId, 'count' in line ? line.count : undefined])).toEqual([
      ['access_denied', 'req-401', 1],
      ['mutation', 'req-1', undefined],
      ['access_denied', null, 1],
    ]);
  });

  it('writes nothing after close, and counts what it could not write', async () => {
    const stdout = memoryStdout();
    const { counts, observer } = countingObserver();
    const trail = openTrail({ destination: { kind: 'stdout' }, stdout, observer });
    await trail.close();

    expect(() => trail.write(auditRecord())).not.toThrow();
    expect(stdout.lines).toEqual([]);
    expect(counts.failed.stdout).toBe(1);
  });

  it('says records are lost when Redis cannot be reached and there is no other destination', async () => {
    const log = capturedLog();
    const { counts, observer } = countingObserver();
    const port = await freePort();
    const trail = openTrail({ destination: { kind: 'off' }, redis: { url: `redis://127.0.0.1:${port}` }, logger: log.logger, observer });

    await vi.waitFor(() => {
      trail.write(auditRecord());
      expect(log.warnings(/Redis/)).toHaveLength(1);
    });
    expect(log.warnings(/Redis/)[0]!.msg).toBe('audit records are not reaching Redis, and go nowhere else: they are lost while it is away');
    expect(log.warnings(/Redis/)[0]!.reason).toMatch(/ECONNREFUSED/);
    expect(counts.written.redis).toBe(0);
    expect(counts.failed.redis).toBeGreaterThan(0);
  });
});
