import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureFor } from '../../src/events/intake.ts';
import { KIT_WEBHOOKS, startKit, type Kit } from '../helpers/kit.ts';
import { REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';
import { subscribeWs } from '../helpers/subscribe.ts';

/**
 * Two gateway instances on one Redis: a webhook posted to either reaches subscribers on both, once.
 * Needs Redis (REDIS_URL, default 127.0.0.1:6379): CI has it; elsewhere, without it, this is skipped
 * and says why.
 */

const haveRedis = await redisAnswers(REDIS_URL);
const mustRun = Boolean(process.env.CI);
const skip = mustSkip(
  haveRedis || mustRun,
  `events across instances: no Redis at ${REDIS_URL}; start redis-server or set REDIS_URL (CI has it)`,
);

async function deliver(baseUrl: string, body: object) {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${baseUrl}/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': KIT_WEBHOOKS.apiKey,
      'x-timestamp': timestamp,
      'x-signature': signatureFor(KIT_WEBHOOKS.signingSecret, timestamp, raw),
    },
    body: raw,
  });
  return ((await response.json()) as { status: string }).status;
}

/** Each test's gateways get keys of their own on the shared Redis, removed afterwards. */
const prefixes: string[] = [];
function freshPrefix(what: string): string {
  const prefix = `test-${what}-${randomUUID()}`;
  prefixes.push(prefix);
  return prefix;
}

/** Deliveries posted at once, as the bank's queue does after an outage: the intake's answers and the shared seen set under load. */
const FLOOD = 64;

function tally(statuses: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe.skipIf(skip)('events across instances (Redis)', () => {
  let first: Kit;
  let second: Kit;

  /**
   * Posts every body at once, the nth to either instance in turn, with a subscriber on each; the
   * answers counted by status, and the ids each subscriber got once `expected` came and a moment passed.
   */
  async function flood(bodies: object[], expected: number): Promise<{ answers: Record<string, number>; received: string[][] }> {
    const subscribers = await Promise.all([first, second].map((kit) => subscribeWs(kit, 'subscription { bankEvents { upstreamId } }')));
    const answers = tally(await Promise.all(bodies.map((body, n) => deliver((n % 2 === 0 ? first : second).baseUrl!, body))));
    for (const subscriber of subscribers) await subscriber.next(expected, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const subscriber of subscribers) await subscriber.close();
    return { answers, received: subscribers.map((subscriber) => subscriber.received.map((r) => r.data.bankEvents.upstreamId as string)) };
  }

  beforeAll(async () => {
    const redisKeyPrefix = freshPrefix('fan-out');
    first = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix });
    second = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    const redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`{${prefix}}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  it('delivers a webhook posted to one instance to a subscriber on the other, once; the same event on the other is a duplicate', async () => {
    const onSecond = await subscribeWs(second, 'subscription { accountStatusChanged { status event { upstreamId } } }');
    const onFirst = await subscribeWs(first, 'subscription { accountStatusChanged { status event { upstreamId } } }');
    const id = `acct_${randomUUID()}_account.suspended`;
    const event = {
      id,
      name: 'account.suspended',
      account_id: 'sandbox-user',
      data: { status: 'SUSPENDED' },
      created_at: '2026-11-21T10:00:00+0000',
      version: '2025-02-14',
    };

    expect(await deliver(first.baseUrl!, event)).toBe('accepted');
    const [received] = await onSecond.next(1);
    expect(received).toEqual({ data: { accountStatusChanged: { status: 'SUSPENDED', event: { upstreamId: id } } } });
    await onFirst.next(1);

    expect(await deliver(second.baseUrl!, event)).toBe('duplicate');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onSecond.received).toHaveLength(1);
    expect(onFirst.received).toHaveLength(1);

    // The same transition again, a second later: a new occurrence, to whichever instance it comes.
    expect(await deliver(second.baseUrl!, { ...event, created_at: '2026-11-21T10:00:01+0000' })).toBe('accepted');
    await onFirst.next(2);
    await onSecond.next(2);
    expect(await deliver(first.baseUrl!, { ...event, created_at: '2026-11-21T10:00:01+0000' })).toBe('duplicate');
    await onSecond.close();
    await onFirst.close();
  });

  it('answers a flood of distinct events, posted at once to either instance, 202 each, and delivers each once on both', async () => {
    const ids = Array.from({ length: FLOOD }, (_, n) => `acct_${randomUUID()}_${n}_account.active`);
    const { answers, received } = await flood(ids.map(eventOf), FLOOD);
    expect(answers).toEqual({ accepted: FLOOD });
    const sorted = [...ids].sort();
    expect(received.map((onOne) => onOne.sort())).toEqual([sorted, sorted]);
  });

  it('answers a flood of one event, posted at once to either instance, once 202 and duplicate to the rest, and delivers it once on both', async () => {
    const id = `acct_${randomUUID()}_account.active`;
    const { answers, received } = await flood(
      Array.from({ length: FLOOD }, () => eventOf(id)),
      1,
    );
    expect(answers).toEqual({ accepted: 1, duplicate: FLOOD - 1 });
    expect(received).toEqual([[id], [id]]);
  });

  it('resumes on another instance after a cursor from the first, from the shared log, in order and none twice', async () => {
    const prefix = freshPrefix('catch-up');
    const a = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: prefix });
    const b = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: prefix });
    const feed = 'subscription ($after: String) { bankEvents(after: $after) { upstreamId cursor } }';
    try {
      const onA = await subscribeWs(a, feed);
      const ids = [1, 2, 3].map((n) => `acct_${randomUUID()}_${n}_account.active`);
      expect(await deliver(a.baseUrl!, eventOf(ids[0]!))).toBe('accepted');
      const [seen] = await onA.next(1);
      await onA.close();
      expect(await deliver(b.baseUrl!, eventOf(ids[1]!))).toBe('accepted');
      expect(await deliver(a.baseUrl!, eventOf(ids[2]!))).toBe('accepted');

      // A third instance, started after all this, holds none of it in memory: the stream does.
      const c = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: prefix });
      try {
        const resumed = await subscribeWs(c, feed, { after: seen.data.bankEvents.cursor });
        await resumed.next(2);
        const live = `acct_${randomUUID()}_4_account.active`;
        expect(await deliver(b.baseUrl!, eventOf(live))).toBe('accepted');
        await resumed.next(3);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(resumed.received.map((r) => r.data.bankEvents.upstreamId)).toEqual([ids[1], ids[2], live]);
        await resumed.close();
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a cursor whose successors were trimmed from the shared log, naming the oldest one kept', async () => {
    const prefix = freshPrefix('trim');
    const a = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: prefix, eventLog: { maxEvents: 2 } });
    const feed = 'subscription ($after: String) { bankEvents(after: $after) { upstreamId cursor } }';
    try {
      const onA = await subscribeWs(a, feed);
      for (let n = 0; n < 4; n++) expect(await deliver(a.baseUrl!, eventOf(`acct_${randomUUID()}_${n}_account.active`))).toBe('accepted');
      const received = await onA.next(4);
      await onA.close();
      const b = await startKit({ listen: true, redis: { url: REDIS_URL }, redisKeyPrefix: prefix, eventLog: { maxEvents: 2 } });
      try {
        const refused = await subscribeWs(b, feed, { after: received[0].data.bankEvents.cursor }, {}, { registered: false });
        const [answer] = await refused.next(1);
        expect(answer.errors[0].extensions).toEqual({ code: 'CURSOR_EXPIRED', oldestCursor: received[2].data.bankEvents.cursor });
        await refused.close();
        // The cursor just before the oldest kept still resumes: nothing after it was trimmed.
        const resumed = await subscribeWs(b, feed, { after: received[1].data.bankEvents.cursor });
        await resumed.next(2);
        expect(resumed.received.map((r) => r.data.bankEvents.cursor)).toEqual([
          received[2].data.bankEvents.cursor,
          received[3].data.bankEvents.cursor,
        ]);
        await resumed.close();
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
    }
  });
});

function eventOf(id: string) {
  return {
    id,
    name: 'account.active',
    account_id: 'sandbox-user',
    data: { status: 'ACTIVE' },
    created_at: '2026-11-21T10:00:00+0000',
    version: '2025-02-14',
  };
}
