import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, haveRedisServer, OwnRedis } from '../../test/redis.ts';
import { mustSkip } from '../../test/skip.ts';
import { createLogger } from '../platform/logger.ts';
import type { AuditRecord, MutationRecord } from './record.ts';
import { createAuditTrail, type AuditTrail, type AuditTrailOptions } from './trail.ts';

function auditRecord(overrides: Partial<MutationRecord> = {}): MutationRecord {
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
function capturedLog() {
  const lines: LogLine[] = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const at = (level: number, pattern: RegExp) => lines.filter((line) => line.level === level && pattern.test(line.msg));
  return { logger, lines, warnings: (pattern: RegExp) => at(40, pattern), infos: (pattern: RegExp) => at(30, pattern) };
}

function countingObserver() {
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

function memoryStdout() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

const opened: AuditTrail[] = [];
function openTrail(options: Omit<AuditTrailOptions, 'logger'> & { logger?: AuditTrailOptions['logger'] }): AuditTrail {
  const trail = createAuditTrail({ logger: capturedLog().logger, ...options });
  opened.push(trail);
  return trail;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
let dir: string;

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
  rmSync(dir, { recursive: true, force: true });
});

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
    const existing = join(dir, 'existing.log');
    writeFileSync(existing, earlier);
    const fresh = join(dir, 'new', 'nested', 'audit.log');
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
    const regularFile = join(dir, 'not-a-directory');
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

  it('lets the process exit cleanly after a file it could not open', () => {
    const regularFile = join(dir, 'in-the-way');
    writeFileSync(regularFile, '');
    // pino flushes its destinations synchronously at exit, in the main thread only: hence a process.
    const script = `
      import { createAuditTrail } from ${JSON.stringify(new URL('./trail.ts', import.meta.url).pathname)};
      import { silentLogger } from ${JSON.stringify(new URL('../platform/logger.ts', import.meta.url).pathname)};
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

const skip = mustSkip(haveRedisServer, 'audit trail in Redis: redis-server is not installed (CI has it)');

describe.skipIf(skip)('the audit trail in a Redis Stream', () => {
  let redis: OwnRedis;
  let reader: Redis;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    reader = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    // The reader outlives the server's restarts; ioredis would report each lost connection on stderr.
    reader.on('error', () => {});
  });
  afterAll(async () => {
    reader?.disconnect();
    await redis?.stop();
  });

  const entriesOf = async (key: string) => (await reader.xrange(key, '-', '+')).map(([, fields]) => JSON.parse(fields[1]!) as AuditRecord);
  const lastRequestId = async (key: string) => {
    const [last] = await reader.xrevrange(key, '+', '-', 'COUNT', 1);
    return last ? (JSON.parse(last[1][1]!) as AuditRecord).requestId : undefined;
  };

  /**
   * Records written before the trail's first connection is up miss the stream (no offline queue):
   * write until one lands, then until the trail itself hears a probe land (on a machine busy enough
   * to stall the test's thread past the 250 ms command timeout, a reply read after it counts as
   * missed though Redis has the record), waiting for every probe's answer, so that no probe lands in
   * the stream, or in the counts, after both are emptied.
   */
  async function untilConnected(trail: AuditTrail, key: string, observed: ReturnType<typeof countingObserver>) {
    const { counts } = observed;
    let probes = 0;
    const probe = (requestId: string) => {
      probes += 1;
      trail.write(auditRecord({ requestId }));
    };
    const answered = () => counts.written.redis + counts.failed.redis;
    await vi.waitFor(async () => {
      probe('probe');
      expect(await reader.exists(key)).toBe(1);
    });
    await vi.waitFor(
      async () => {
        await vi.waitFor(() => expect(answered()).toBe(probes));
        const written = counts.written.redis;
        probe('probe-last');
        await vi.waitFor(() => expect(answered()).toBe(probes));
        expect(counts.written.redis).toBe(written + 1);
      },
      { timeout: 10_000 },
    );
    await vi.waitFor(async () => expect(await lastRequestId(key)).toBe('probe-last'));
    await reader.del(key);
    observed.reset();
  }

  it('keeps the records written while its first connection is made, and lands them once it is up', async () => {
    const key = 'audit-first-seconds';
    const log = capturedLog();
    const observed = countingObserver();
    const trail = openTrail({
      destination: { kind: 'off' },
      redis: { url: redis.url },
      redisKey: key,
      logger: log.logger,
      observer: observed.observer,
    });
    trail.write(auditRecord({ requestId: 'req-at-once' }));
    await vi.waitFor(async () => expect(await lastRequestId(key)).toBe('req-at-once'));
    expect(observed.counts.failed.redis).toBe(0);
    expect(log.warnings(/Redis/)).toEqual([]);
    await reader.del(key);
  });

  it('appends every record to the stream, capped near its length, and nothing to stdout when the destination is off', async () => {
    const stdout = memoryStdout();
    const log = capturedLog();
    const observed = countingObserver();
    const { counts, observer } = observed;
    const trail = openTrail({
      destination: { kind: 'off' },
      stdout,
      redis: { url: redis.url },
      redisMaxLen: 10,
      logger: log.logger,
      observer,
    });
    await untilConnected(trail, 'audit', observed);

    const records = Array.from({ length: 500 }, (_, i) => auditRecord({ requestId: `req-${i}` }));
    for (const record of records) trail.write(record);
    await vi.waitFor(async () => expect(await lastRequestId('audit')).toBe('req-499'));

    const entries = await entriesOf('audit');
    // MAXLEN ~ trims whole stream nodes (100 entries each by default): near 10, never all 500.
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(entries.length).toBeLessThan(200);
    expect(entries).toStrictEqual(records.slice(-entries.length));
    await vi.waitFor(() => expect(counts.written.redis).toBe(500));
    expect(counts.failed.redis).toBe(0);
    expect(stdout.lines).toEqual([]);
    // The first connection being made is no outage.
    expect(log.warnings(/Redis/)).toEqual([]);
  });

  it('keeps writing to stdout while Redis is down, warns once, and goes back to the stream when it returns', async () => {
    const key = 'audit-outage';
    const stdout = memoryStdout();
    const log = capturedLog();
    const observed = countingObserver();
    const { counts, observer } = observed;
    const trail = openTrail({
      destination: { kind: 'stdout' },
      stdout,
      redis: { url: redis.url },
      redisKey: key,
      logger: log.logger,
      observer,
    });
    // Ends with a record the trail heard land: it is up, with nothing of its own in flight.
    await untilConnected(trail, key, observed);
    stdout.lines.length = 0;
    // What the connecting said, if a probe's answer came late on a busy machine, is not the outage's.
    const warnings = () => log.warnings(/Redis/).slice(warnedBefore);
    const warnedBefore = log.warnings(/Redis/).length;
    const backBefore = log.infos(/audit records reach Redis again/).length;

    await redis.stop();
    trail.write(auditRecord({ requestId: 'req-down-1' }));
    await vi.waitFor(() => expect(counts.failed.redis).toBe(1));
    // Across ioredis's reconnect attempts, the records missed are counted, not each said.
    await new Promise((resolve) => setTimeout(resolve, 400));
    trail.write(auditRecord({ requestId: 'req-down-2', outcome: 'error', detail: 'UPSTREAM_UNAVAILABLE' }));
    expect(counts.failed.redis).toBe(2);

    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toBe('audit records are not reaching Redis: they still go to stdout');
    expect(warnings()[0]!.record).toStrictEqual({ field: 'payoutCreate', outcome: 'success', requestId: 'req-down-1' });
    expect(stdout.lines.map((line) => (JSON.parse(line) as AuditRecord).requestId)).toEqual(['req-down-1', 'req-down-2']);

    await redis.start();
    let attempt = 0;
    await vi.waitFor(
      async () => {
        trail.write(auditRecord({ requestId: `req-back-${++attempt}` }));
        expect(await lastRequestId(key)).toMatch(/^req-back-/);
      },
      { timeout: 10_000, interval: 100 },
    );
    // The stream may show the entry before the trail has its answer.
    const back = () => log.infos(/audit records reach Redis again/).slice(backBefore);
    await vi.waitFor(() => expect(back()).toHaveLength(1));
    // Every record since the outage has its answer: the two written while down and the tries since, each missed or landed.
    await vi.waitFor(() => expect(counts.written.redis + counts.failed.redis).toBe(2 + attempt));
    expect(back()[0]!.missed).toBeGreaterThanOrEqual(2);
    expect(back()[0]!.missed).toBe(counts.failed.redis);
    expect(warnings()).toHaveLength(1);
    expect(counts.written.stdout).toBe(stdout.lines.length);
  });
});
