import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '../../src/audit/record.ts';
import type { AuditTrail } from '../../src/audit/trail.ts';
import { auditRecord, capturedLog, countingObserver, memoryStdout, useTrails } from '../helpers/audit-trail.ts';
import { freePort, haveRedisServer, OwnRedis } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';

/**
 * The audit trail's Redis Stream (src/audit/trail.ts), on a redis-server of the test's own, stopped
 * and started again by its PID; skipped, saying why, without redis-server (CI has it).
 */

const { openTrail } = useTrails();

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
