import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureFor } from '../src/events/intake.ts';
import { KIT_WEBHOOKS, startKit, type Kit } from './kit.ts';
import { subscribeWs } from './subscribe.ts';

/**
 * Two gateway instances on one Redis: a webhook posted to either reaches subscribers on both, once.
 * Needs Redis (REDIS_URL, default 127.0.0.1:6379): CI has it; elsewhere, without it, this is skipped
 * and says why.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(500);
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => { socket.destroy(); resolve(false); });
  });
}

const haveRedis = await redisAnswers(REDIS_URL);
const mustRun = Boolean(process.env.CI);
const title = haveRedis || mustRun ? 'events across instances (Redis)' : `events across instances (skipped: no Redis at ${REDIS_URL}; start redis-server or set REDIS_URL; CI has it)`;

async function deliver(baseUrl: string, body: object) {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${baseUrl}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KIT_WEBHOOKS.apiKey, 'x-timestamp': timestamp, 'x-signature': signatureFor(KIT_WEBHOOKS.signingSecret, timestamp, raw) },
    body: raw,
  });
  return ((await response.json()) as { status: string }).status;
}

describe.skipIf(!haveRedis && !mustRun)(title, () => {
  let first: Kit;
  let second: Kit;
  beforeAll(async () => {
    first = await startKit({ listen: true, redisUrl: REDIS_URL });
    second = await startKit({ listen: true, redisUrl: REDIS_URL });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('delivers a webhook posted to one instance to a subscriber on the other, once; the same event on the other is a duplicate', async () => {
    const onSecond = await subscribeWs(second, 'subscription { accountStatusChanged { status event { id } } }');
    const onFirst = await subscribeWs(first, 'subscription { accountStatusChanged { status event { id } } }');
    const id = `acct_${randomUUID()}_account.suspended`;
    const event = { id, name: 'account.suspended', account_id: 'sandbox-user', data: { status: 'SUSPENDED' }, created_at: '2026-11-21T10:00:00+0000', version: '2025-02-14' };

    expect(await deliver(first.baseUrl!, event)).toBe('accepted');
    const [received] = await onSecond.next(1);
    expect(received).toEqual({ data: { accountStatusChanged: { status: 'SUSPENDED', event: { id } } } });
    await onFirst.next(1);

    expect(await deliver(second.baseUrl!, event)).toBe('duplicate');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onSecond.received).toHaveLength(1);
    expect(onFirst.received).toHaveLength(1);
    await onSecond.close();
    await onFirst.close();
  });
});
