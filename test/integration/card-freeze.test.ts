import { randomUUID } from 'node:crypto';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import type { ApiKeyConfig, CallerAuthConfig } from '../../src/settings/index.ts';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { useKit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { freePort, REDIS_URL, redisAnswers } from '../helpers/redis.ts';
import { mustSkip } from '../helpers/skip.ts';
import { postGraphql } from '../helpers/http.ts';

/**
 * A cardholder lifts only its own freeze (docs/permissions.md, "Callers bound to one cardholder"):
 * a card its phone made INACTIVE it may make ACTIVE again; a card anyone else made INACTIVE (an
 * admin, a card manager, the bank, the card network), or one whose origin the gateway does not
 * know, stays so for it: Forbidden, decided before anything is sent to the bank.
 */

const KEYS = {
  admin: 'gwk_test-freeze-admin-0123456789abcdef',
  manager: 'gwk_test-freeze-manager-0123456789abcdef',
  ava: 'gwk_test-freeze-ava-0123456789abcdef',
};
for (const key of Object.values(KEYS)) registerSecret('a caller API key', key);
type Who = keyof typeof KEYS;

const apiKeys: ApiKeyConfig[] = [
  { name: 'admin', sha256: sha256Hex(KEYS.admin), roles: ['admin'], cardholderId: null },
  { name: 'manager', sha256: sha256Hex(KEYS.manager), roles: ['card-manager'], cardholderId: null },
  { name: 'ava-phone', sha256: sha256Hex(KEYS.ava), roles: ['cardholder'], cardholderId: 'chd_demo_ava' },
];
const auth: CallerAuthConfig = { mode: 'service', apiKeys, jwt: undefined, allowedOrigins: [] };

const kit = useKit({ auth });

const VIRTUAL = 'crd_demo_ava_v';
const PHYSICAL = 'crd_demo_ava_p';
const REASON = /made inactive by someone other than its cardholder.*a card manager must reactivate it/;

interface Outcome {
  __typename: string;
  card?: { status: string };
  permission?: string;
  message?: string;
}

async function run(gateway: Gateway, who: Who, query: string): Promise<Record<string, Outcome>> {
  const { body } = await postGraphql<{ data?: Record<string, Outcome>; errors?: unknown }>(
    'http://gateway.test/graphql',
    { query },
    { 'x-api-key': KEYS[who] },
    { fetch: gateway.yoga.fetch },
  );
  expect(body.errors).toBeUndefined();
  return body.data!;
}

const result = (success: string) =>
  `__typename ... on ${success} { card { status } } ... on MutationError { message } ... on Forbidden { permission }`;

/** `who` sets the card's status with cardUpdate, on `gateway` (the kit's by default). */
async function setStatus(
  who: Who,
  cardId: string,
  status: 'ACTIVE' | 'INACTIVE' | 'CLOSED',
  gateway: Gateway = kit.gateway,
): Promise<Outcome> {
  const id = encodeGlobalID('Card', cardId);
  return (
    await run(
      gateway,
      who,
      `mutation { cardUpdate(input: {cardId: "${id}", status: ${status}, updatedBy: "Ava Chen"}) { ${result('CardUpdateSuccess')} } }`,
    )
  ).cardUpdate!;
}

async function activate(who: Who, cardId: string, activationCode: string): Promise<Outcome> {
  const id = encodeGlobalID('Card', cardId);
  return (
    await run(
      kit.gateway,
      who,
      `mutation { cardActivate(input: {cardId: "${id}", activationCode: "${activationCode}", pin: "482916"}) { ${result('CardActivateSuccess')} } }`,
    )
  ).cardActivate!;
}

const success = (status: string) => ({ __typename: 'CardUpdateSuccess', card: { status } });

/** What the bank holds, read by the admin. */
async function bankStatus(cardId: string): Promise<string> {
  const data = await run(kit.gateway, 'admin', `{ card(id: "${cardId}") { status } }`);
  return (data.card as unknown as { status: string }).status;
}

function expectRefusedUnsent(outcome: Outcome) {
  expect(outcome).toEqual({ __typename: 'Forbidden', permission: 'cards:write', message: expect.stringMatching(REASON) });
  expect(kit.calls()).toEqual([]);
}

describe('a cardholder and its card\u2019s freezes (one instance, no Redis)', () => {
  it('cannot lift an admin\u2019s block: Forbidden with who must lift it, and nothing sent to the bank', async () => {
    expect(await setStatus('admin', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE'));
    expect(await bankStatus(VIRTUAL)).toBe('INACTIVE');
    const records = kit.audit().flatMap((r) => (r.audit === 'mutation' ? [[r.field, r.outcome, r.permission]] : []));
    expect(records).toEqual([['cardUpdate', 'forbidden', 'cards:write']]);
  });

  it('freezes and unfreezes its own card: the bank holds ACTIVE again', async () => {
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    expect(await setStatus('ava', VIRTUAL, 'ACTIVE')).toEqual(success('ACTIVE'));
    expect(await bankStatus(VIRTUAL)).toBe('ACTIVE');
    expect(kit.calls('/svc/api/v1/card', 'PATCH').map((c) => c.status)).toEqual([200, 200]);
  });

  it('cannot lift an admin\u2019s block made after its own freeze', async () => {
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    expect(await setStatus('admin', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE'));
    // A card manager lifts it; the cardholder's next freeze is its own again.
    expect(await setStatus('manager', VIRTUAL, 'ACTIVE')).toEqual(success('ACTIVE'));
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    expect(await setStatus('ava', VIRTUAL, 'ACTIVE')).toEqual(success('ACTIVE'));
  });

  it('cannot lift a block the bank made, not even by freezing the blocked card first', async () => {
    await kit.control('POST', `cards/${VIRTUAL}/status`, { status: 'INACTIVE' });
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE'));
    // Freezing is always allowed; a card that was already inactive does not become its own freeze.
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE'));
  });

  it('activates its new physical card with cardActivate, not with cardUpdate; once blocked, activation lifts nothing', async () => {
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', PHYSICAL, 'ACTIVE'));
    const emails = (await kit.control('GET', 'emails')) as { cardId: string; activationCode: string }[];
    const code = emails.find((e) => e.cardId === PHYSICAL)!.activationCode;
    expect(await activate('ava', PHYSICAL, code)).toEqual({ __typename: 'CardActivateSuccess', card: { status: 'ACTIVE' } });
    expect(await setStatus('ava', PHYSICAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    expect(await setStatus('ava', PHYSICAL, 'ACTIVE')).toEqual(success('ACTIVE'));

    expect(await setStatus('admin', PHYSICAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expect(await activate('ava', PHYSICAL, code)).toEqual({
      __typename: 'Forbidden',
      permission: 'cards:write',
      message: expect.stringMatching(REASON),
    });
    expect(kit.calls('/svc/api/v1/card/activate')).toEqual([]);
    expect(await bankStatus(PHYSICAL)).toBe('INACTIVE');
  });

  it('after a restart without Redis, cannot lift even its own freeze (the record is gone: fail closed)', async () => {
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE')).toEqual(success('INACTIVE'));
    const restarted = createGateway({ upstream: kit.upstreamConfig, logger: createLogger('silent'), auth });
    try {
      await kit.resetCounts();
      expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE', restarted));
    } finally {
      await restarted.server.stop(1_000);
    }
  });
});

const noRedis = mustSkip(await redisAnswers(REDIS_URL), `card freezes in Redis: nothing answers at ${REDIS_URL}`);

describe.skipIf(noRedis)('the freezes\u2019 origins in Redis: every instance, and restarts', () => {
  const prefix = `test-card-freezes-${randomUUID()}`;
  const started: Gateway[] = [];
  const instance = (redisUrl = REDIS_URL) => {
    const gateway = createGateway({
      upstream: kit.upstreamConfig,
      logger: createLogger('silent'),
      auth,
      redis: { url: redisUrl },
      redisKeyPrefix: prefix,
      cardFreezesKeyPrefix: prefix,
    });
    started.push(gateway);
    return gateway;
  };
  const stop = async (gateway: Gateway) => {
    started.splice(started.indexOf(gateway), 1);
    await gateway.server.stop(1_000);
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((gateway) => gateway.server.stop(1_000)));
  });
  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('holds on a second instance sharing the Redis', async () => {
    const [one, two] = [instance(), instance()];
    expect(await setStatus('admin', VIRTUAL, 'INACTIVE', one)).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE', two));

    expect(await setStatus('manager', VIRTUAL, 'ACTIVE', two)).toEqual(success('ACTIVE'));
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE', one)).toEqual(success('INACTIVE'));
    expect(await setStatus('ava', VIRTUAL, 'ACTIVE', two)).toEqual(success('ACTIVE'));
    expect(await bankStatus(VIRTUAL)).toBe('ACTIVE');
  });

  it('holds on a gateway restarted on it: its own freeze it lifts, a block it does not', async () => {
    const before = instance();
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE', before)).toEqual(success('INACTIVE'));
    await stop(before);
    expect(await setStatus('ava', VIRTUAL, 'ACTIVE', instance())).toEqual(success('ACTIVE'));

    const again = instance();
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE', again)).toEqual(success('INACTIVE'));
    expect(await setStatus('admin', VIRTUAL, 'INACTIVE', again)).toEqual(success('INACTIVE'));
    await stop(again);
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE', instance()));
  });

  it('with Redis unreachable, refuses the unfreeze, still freezes and blocks, and crashes nothing', async () => {
    const away = instance(`redis://127.0.0.1:${await freePort()}`);
    expect(await setStatus('ava', VIRTUAL, 'INACTIVE', away)).toEqual(success('INACTIVE'));
    await kit.resetCounts();
    expectRefusedUnsent(await setStatus('ava', VIRTUAL, 'ACTIVE', away));
    expect(await setStatus('admin', VIRTUAL, 'INACTIVE', away)).toEqual(success('INACTIVE'));
    expect(await setStatus('manager', VIRTUAL, 'ACTIVE', away)).toEqual(success('ACTIVE'));
    expect(await bankStatus(VIRTUAL)).toBe('ACTIVE');
  });
});
