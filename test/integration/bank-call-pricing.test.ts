import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { extraCardMutation, ONE_CALL_BALANCES, OPERATIONS } from '../../bench/operations.ts';
import { BANK_COST_HEADER } from '../../src/limits/bank-call-pricing.ts';
import { SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { postGraphql } from '../helpers/http.ts';
import { useKit, type Kit } from '../helpers/kit.ts';
import { subscribeSse, subscribeWs } from '../helpers/subscribe.ts';

/**
 * Every operation priced in bank calls before it runs (issue 56): above OPERATION_MAX_BANK_CALLS it
 * is refused with OPERATION_TOO_EXPENSIVE, over its client's CLIENT_BANK_CALL_BUDGET with
 * RATE_LIMITED, each with no bank call made, on every transport; asked for, the price is in
 * `extensions.cost`, and what an operation did not spend goes back to its client's budget.
 */

const CARDS_SCREEN = OPERATIONS.find((operation) => operation.operationName === 'CardsScreen')!;
const CSRF = { 'x-graphql-csrf': '1' };

/** Bank calls the sandbox saw, the gateway's login aside. */
const bankCalls = (kit: Kit) => kit.calls().filter((call) => !call.path.includes('/authentication/'));

async function post(kit: Kit, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return postGraphql(`${kit.baseUrl}/graphql`, { query, variables }, headers);
}

describe('a ceiling per operation', () => {
  const kit = useKit({ listen: true, cache: false, limits: { maxBankCalls: 20 } });
  beforeEach(async () => {
    // A token first: a login is no call of the operation's.
    await post(kit, ONE_CALL_BALANCES);
    await kit.resetCounts();
  });

  it('refuses over HTTP an operation whose estimate is above it, naming the estimate, the ceiling and what costs most, with no bank call', async () => {
    const answer = await post(kit, CARDS_SCREEN.query, { cards: 50 });
    const [error] = answer.body.errors;
    expect(error.extensions.code).toBe('OPERATION_TOO_EXPENSIVE');
    expect(error.extensions.maxBankCalls).toBe(20);
    expect(error.extensions.estimatedBankCalls).toBeGreaterThan(20);
    expect(error.extensions.costliest).toHaveLength(3);
    expect(error.message).toContain(error.extensions.costliest[0].path);
    expect(answer.body.data).toBeUndefined();
    expect(bankCalls(kit)).toEqual([]);
  });

  it('refuses it the same over graphql-ws and SSE', async () => {
    for (const subscribe of [subscribeWs, subscribeSse]) {
      const refused = await subscribe(kit, CARDS_SCREEN.query, { cards: 50 }, CSRF, { registered: false });
      const [answer] = await refused.next(1);
      expect(answer.errors[0].extensions.code).toBe('OPERATION_TOO_EXPENSIVE');
      await refused.close();
    }
    expect(bankCalls(kit)).toEqual([]);
  });

  it('lets an operation under it run', async () => {
    const answer = await post(kit, ONE_CALL_BALANCES);
    expect(answer.body.errors).toBeUndefined();
    expect(bankCalls(kit)).toHaveLength(1);
  });
});

describe('extensions.cost', () => {
  const kit = useKit({ listen: true, cache: false });
  beforeEach(async () => {
    await post(kit, ONE_CALL_BALANCES);
    await kit.resetCounts();
  });

  it(`tells the estimate and the actual bank calls when ${BANK_COST_HEADER} is sent, and nothing otherwise`, async () => {
    const asked = await post(kit, ONE_CALL_BALANCES, {}, { [BANK_COST_HEADER]: 'true' });
    expect(asked.body.extensions.cost).toEqual({ estimatedBankCalls: 1, actualBankCalls: 1 });
    const unasked = await post(kit, ONE_CALL_BALANCES);
    expect(unasked.body.extensions?.cost).toBeUndefined();
  });

  it('counts the calls that reached the bank: the cards screen, estimate at least its actual calls', async () => {
    for (let index = 1; index < 5; index++) {
      const { query, variables } = extraCardMutation(index);
      await post(kit, query, variables);
    }
    await kit.resetCounts();
    const answer = await post(kit, CARDS_SCREEN.query, { cards: 5 }, { [BANK_COST_HEADER]: 'true' });
    const { cost } = answer.body.extensions;
    expect(cost.actualBankCalls).toBe(bankCalls(kit).length);
    expect(cost.estimatedBankCalls).toBeGreaterThanOrEqual(cost.actualBankCalls);
  });
});

describe('a budget per client', () => {
  const kit = useKit({ listen: true, cache: false, clientRateLimit: { bankCallBudget: 3, windowSeconds: 60 } });

  it('charges each operation its estimate and gives back what it did not spend, then refuses with RATE_LIMITED, 429 and Retry-After, before any bank call', async () => {
    const headers = { [BANK_COST_HEADER]: 'true' };
    const first = await post(kit, ONE_CALL_BALANCES, {}, headers);
    // The login is the gateway's, not the operation's: one call charged of three.
    expect(first.body.extensions.cost).toMatchObject({ estimatedBankCalls: 1, actualBankCalls: 1, budget: { limit: 3, remaining: 2 } });
    await post(kit, ONE_CALL_BALANCES, {}, headers);
    await post(kit, ONE_CALL_BALANCES, {}, headers);
    await kit.resetCounts();
    const refused = await post(kit, ONE_CALL_BALANCES, {}, headers);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'RATE_LIMITED',
      budget: { limit: 3, remaining: 0, estimatedBankCalls: 1 },
    });
    expect(bankCalls(kit)).toEqual([]);
    // The refusal is on the audit trail as an access-denied record.
    expect(kit.denied().map((record) => record.reason)).toContain('RATE_LIMITED');
  });

  // The budget the test above spent: the window lasts a minute.
  it('refuses it the same over graphql-ws, over SSE with its 429, and by an APQ hash, with no bank call', async () => {
    const refused = await subscribeWs(kit, ONE_CALL_BALANCES, {}, CSRF, { registered: false });
    const [answer] = await refused.next(1);
    expect(answer.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', budget: { limit: 3, remaining: 0 } });
    await refused.close();
    const overSse = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: ONE_CALL_BALANCES }),
    });
    expect(overSse.status).toBe(429);
    expect(await overSse.text()).toContain('RATE_LIMITED');
    // And by an automatic persisted query's hash, once its text is known.
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(ONE_CALL_BALANCES).digest('hex') } };
    await postGraphql(`${kit.baseUrl}/graphql`, { query: ONE_CALL_BALANCES, extensions });
    const byHash = await postGraphql(`${kit.baseUrl}/graphql`, { extensions });
    expect(byHash.status).toBe(429);
    expect(byHash.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(bankCalls(kit)).toEqual([]);
  });
});

describe('Query.rateLimit', () => {
  const kit = useKit({ listen: true, cache: false, clientRateLimit: { bankCallBudget: 100, windowSeconds: 60 } });
  beforeEach(async () => {
    await post(kit, '{ rateLimit(dryRun: true) { cost } }');
    await kit.resetCounts();
  });

  it("tells the operation's cost and the budget left, the operation charged, in GitHub's shape", async () => {
    const answer = await post(kit, `{ rateLimit { cost limit remaining resetAt } balances { currency } }`);
    expect(answer.body.errors).toBeUndefined();
    const { rateLimit } = answer.body.data;
    expect(rateLimit).toMatchObject({ cost: 1, limit: 100 });
    expect(rateLimit.remaining).toBeLessThanOrEqual(99);
    expect(Date.parse(rateLimit.resetAt)).toBeGreaterThan(Date.now());
    expect(bankCalls(kit)).toHaveLength(1);
  });

  it('with dryRun, prices the operation without running it: no bank call, nothing charged, the other fields absent', async () => {
    const before = (await post(kit, '{ rateLimit(dryRun: true) { remaining } }')).body.data.rateLimit.remaining;
    const answer = await post(
      kit,
      `query ($cards: Int!) { rateLimit(dryRun: true) { cost remaining } ${CARDS_SCREEN.query.replace(/^query \w+\(\$cards: Int!\) \{/, '').replace(/\}\s*$/, '')} }`,
      { cards: 50 },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.rateLimit.cost).toBeGreaterThan(50);
    expect(answer.body.data.rateLimit.remaining).toBe(before);
    expect(answer.body.data.cards).toBeUndefined();
    expect(bankCalls(kit)).toEqual([]);
  });
});

describe('the ceiling, whatever form the document comes in', () => {
  const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
  const manifest = JSON.parse(readFileSync(SHIPPED_TRUSTED_DOCUMENTS, 'utf8')) as Record<string, string>;
  const cardsScreenId = Object.keys(manifest).find((id) => manifest[id]!.startsWith('query CardsScreen('))!;

  describe('an automatic persisted query', () => {
    const kit = useKit({ listen: true, cache: false, limits: { maxBankCalls: 20 } });

    it('refuses it by its hash as by its text, with no bank call', async () => {
      await post(kit, ONE_CALL_BALANCES);
      await kit.resetCounts();
      const extensions = { persistedQuery: { version: 1, sha256Hash: hashOf(CARDS_SCREEN.query) } };
      const registered = await postGraphql(`${kit.baseUrl}/graphql`, { query: CARDS_SCREEN.query, variables: { cards: 50 }, extensions });
      expect(registered.body.errors[0].extensions.code).toBe('OPERATION_TOO_EXPENSIVE');
      const byHash = await postGraphql(`${kit.baseUrl}/graphql`, { variables: { cards: 50 }, extensions });
      expect(byHash.body.errors[0].extensions.code).toBe('OPERATION_TOO_EXPENSIVE');
      expect(bankCalls(kit)).toEqual([]);
    });
  });

  describe('a trusted document', () => {
    const kit = useKit({ listen: true, cache: false, limits: { maxBankCalls: 20, trustedDocuments: SHIPPED_TRUSTED_DOCUMENTS } });

    it('refuses it by its id, with no bank call', async () => {
      const answer = await postGraphql(`${kit.baseUrl}/graphql`, { documentId: cardsScreenId, variables: { cards: 50 } });
      expect(answer.body.errors[0].extensions.code).toBe('OPERATION_TOO_EXPENSIVE');
      expect(bankCalls(kit)).toEqual([]);
    });
  });
});
