import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { MutationRecord } from '../../src/audit/record.ts';
import { createAuditTrail, type AuditTrail, type AuditTrailOptions } from '../../src/audit/trail.ts';
import { createLogger } from '../../src/platform/logger.ts';

/**
 * For the audit trail's own tests (src/audit/trail.test.ts and its Redis Stream and process tests):
 * a record, the trail's log and counts, and trails of a test file's own, closed after each test.
 */

export function auditRecord(overrides: Partial<MutationRecord> = {}): MutationRecord {
  return {
    audit: 'mutation',
    time: '2025-03-04T05:06:07.089Z',
    caller: { kind: 'api-key', name: 'back-office' },
    roles: ['treasurer'],
    permissions: ['fx:write', 'payouts:write'],
    cardholder: null,
    operation: 'PayOut',
    field: 'payoutCreate',
    targets: { beneficiaryId: 'ben_8f2k', quoteId: 'quo_91az' },
    result: 'pay_77c1',
    idempotencyKey: 'idem-5d1e',
    idempotencyKeyBy: 'client',
    outcome: 'success',
    detail: null,
    permission: null,
    clientGone: false,
    requestId: 'req-1',
    clientRequestId: null,
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    ...overrides,
  };
}

type LogLine = { level: number; msg: string; [key: string]: unknown };

/** The trail's log as parsed lines, at debug so nothing it says is filtered out. */
export function capturedLog() {
  const lines: LogLine[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const at = (level: number, pattern: RegExp) => lines.filter((line) => line.level === level && pattern.test(line.msg));
  return { logger, lines, warnings: (pattern: RegExp) => at(40, pattern), infos: (pattern: RegExp) => at(30, pattern) };
}

export function countingObserver() {
  const zero = () => ({ stdout: 0, file: 0, redis: 0 });
  const counts = { written: zero(), failed: zero() };
  return {
    counts,
    observer: {
      written: (to: 'stdout' | 'file' | 'redis') => void counts.written[to]++,
      failed: (to: 'stdout' | 'file' | 'redis') => void counts.failed[to]++,
    },
    reset: () => Object.assign(counts, { written: zero(), failed: zero() }),
  };
}

export function memoryStdout() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

/**
 * The trails a test file opens, closed after each test, which must leave no unhandled rejection
 * behind; and a directory of the file's own for trails that write files.
 */
export function useTrails(): { openTrail: (options: TrailOptions) => AuditTrail; directory: () => string } {
  const opened: AuditTrail[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  let dir: string | undefined;
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
    dir = mkdtempSync(join(tmpdir(), 'audit-trail-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((trail) => trail.close()));
    expect(unhandled).toEqual([]);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    openTrail(options) {
      const trail = createAuditTrail({ logger: capturedLog().logger, ...options });
      opened.push(trail);
      return trail;
    },
    directory: () => dir!,
  };
}

type TrailOptions = Omit<AuditTrailOptions, 'logger'> & { logger?: AuditTrailOptions['logger'] };
