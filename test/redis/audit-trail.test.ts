import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { parse } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { record } from '../helpers/leak-scan.ts';
import { REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';

/**
 * The audit trail as npm start writes it, to each destination AUDIT_LOG names and, with REDIS_URL,
 * to the Redis Stream every instance shares; a destination that fails never costs the mutation its
 * answer, and says so once.
 */

const QUOTE = parse(
  'mutation Lock { quoteCreate(input: {quoteType: CONVERSION, lockPeriod: MINUTES_15, conversionSchedule: NEXT_DAY, sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}, idempotencyKey: "lock-1") { __typename ... on QuoteCreateSuccess { quote { upstreamId } } } }',
) as never;
const kits: Kit[] = [];
afterAll(() => Promise.all(kits.map((kit) => kit.close())));

async function kitWith(options: Parameters<typeof startKit>[0]): Promise<Kit> {
  const kit = await startKit({ cache: false, ...options });
  kits.push(kit);
  return kit;
}

describe('the audit trail in a file (AUDIT_LOG=<path>)', () => {
  it('appends one line per attempt, the same record the caller\u2019s attempt made', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'audit-')), 'trail', 'audit.jsonl');
    const kit = await kitWith({ audit: { destination: { kind: 'file', path }, redisMaxLen: 1_000 } });
    const answer = (await kit.execute(QUOTE, {})) as { data: { quoteCreate: { quote: { upstreamId: string } } } };
    await kit.gateway.auditTrail.close();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        field: 'quoteCreate',
        operation: 'Lock',
        outcome: 'success',
        idempotencyKey: 'lock-1',
        result: answer.data.quoteCreate.quote.upstreamId,
      }),
    ]);
  });

  it('answers the mutation all the same when the file cannot be written, says so once, and counts each lost record', async () => {
    const blocker = join(mkdtempSync(join(tmpdir(), 'audit-')), 'not-a-directory');
    writeFileSync(blocker, 'a file where the trail wants a directory');
    const lines: Record<string, any>[] = [];
    const kit = await kitWith({
      listen: true,
      metricsToken: 'metrics-secret',
      audit: { destination: { kind: 'file', path: join(blocker, 'audit.jsonl') }, redisMaxLen: 1_000 },
      logger: createLogger('debug', {
        write: (line: string) => (lines.push(JSON.parse(line) as Record<string, any>), record('gateway log', line)),
      }),
    });
    for (let i = 0; i < 3; i++) {
      const answer = (await kit.execute(QUOTE, {})) as { data: { quoteCreate: { __typename: string } } };
      expect(answer.data.quoteCreate.__typename).toBe('QuoteCreateSuccess');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await expect.poll(async () => metric(kit, 'gateway_audit_write_failures_total{destination="file"}')).toBe(3);
    expect(lines.filter((line) => String(line.msg).startsWith('audit records are not reaching')).map((line) => line.level)).toEqual([40]);
    expect(await metric(kit, 'gateway_mutation_attempts_total{outcome="success"}')).toBe(3);
  });
});

const haveRedis = await redisAnswers(REDIS_URL);
const skip = mustSkip(haveRedis || Boolean(process.env.CI), `the audit trail's Redis Stream: no Redis at ${REDIS_URL} (CI has it)`);

describe.skipIf(skip)('the audit trail in Redis (REDIS_URL)', () => {
  it('lands every instance\u2019s records in one stream', async () => {
    const prefix = `audit-test-${randomUUID()}`;
    const [one, two] = [
      await kitWith({ redis: { url: REDIS_URL }, redisKeyPrefix: prefix, auditRedisKey: prefix }),
      await kitWith({ redis: { url: REDIS_URL }, redisKeyPrefix: `${prefix}-b`, auditRedisKey: prefix }),
    ];
    await one.execute(QUOTE, {});
    await two.execute(QUOTE, {});
    const redis = new Redis(REDIS_URL);
    try {
      await expect.poll(async () => (await redis.xrange(prefix, '-', '+')).length).toBe(2);
      const records = (await redis.xrange(prefix, '-', '+')).map(([, fields]) => JSON.parse(fields[1]!) as { requestId: string });
      expect(records.map((r) => r.requestId).sort()).toEqual([...one.audit(), ...two.audit()].map((r) => r.requestId).sort());
    } finally {
      await redis.del(prefix);
      redis.disconnect();
    }
  });
});

async function metric(kit: Kit, series: string): Promise<number> {
  const response = await fetch(`${kit.baseUrl ?? ''}/metrics`, { headers: { authorization: 'Bearer metrics-secret' } }).catch(
    () => undefined,
  );
  const text = response ? await response.text() : await kit.gateway.metrics.registry.metrics();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.split(' ').at(-1)) : 0;
}
