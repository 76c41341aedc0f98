import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { ALL_PERMISSIONS, withImplied, type Permission } from '../../src/authorization/permissions.ts';
import { OPERATIONS } from '../../bench/operations.ts';
import { postGraphql } from '../helpers/http.ts';
import { useJwtKit } from '../helpers/jwt-kit.ts';
import { startKit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { readmeExamples } from '../helpers/readme-examples.ts';

/**
 * Who may do what (AUTH_MODE=service): every mutation is refused to a caller without its permission,
 * as a Forbidden result, before any call to the bank, and runs for a caller with it; every attempt
 * leaves one audit record. Query fields the caller may not read are null with FORBIDDEN, alone.
 */

const VIEWER_KEY = 'gwk_test-viewer-dashboard-0123456789abcdef';
registerSecret('a caller API key', VIEWER_KEY);

/** The permission each mutation needs: the decisions of docs/permissions.md, pinned here. */
const NEEDS: Record<string, Permission> = {
  accessTokenCreate: 'session:create',
  accountCreate: 'accounts:write',
  accountClose: 'accounts:write',
  beneficiaryCreate: 'beneficiaries:write',
  beneficiaryUpdate: 'beneficiaries:write',
  beneficiaryDelete: 'beneficiaries:write',
  payoutCreate: 'payouts:write',
  payoutCancel: 'payouts:write',
  quoteCreate: 'quotes:write',
  conversionCreate: 'conversions:write',
  cardCreate: 'cards:write',
  cardAssign: 'cards:write',
  cardActivate: 'cards:control',
  cardPinReset: 'cards:control',
  cardUpdate: 'cards:write',
  cardRecharge: 'cards:write',
  cardholderCreate: 'cardholders:write',
  cardholderUpdate: 'cardholders:write',
  cardholderDelete: 'cardholders:write',
  walletCreate: 'wallets:write',
  webhookSubscriptionCreate: 'webhooks:write',
  webhookSubscriptionUpdate: 'webhooks:write',
  webhookSubscriptionDelete: 'webhooks:write',
  mandateCancel: 'direct-debit:write',
  directDebitCancel: 'direct-debit:write',
};

/** The README's example of each mutation, asking also for a Forbidden's permission. */
const MUTATIONS = readmeExamples()
  .filter(({ example }) => example.startsWith('mutation'))
  .map(({ name, example }) => ({ name, query: example.replace('{ __typename', '{ __typename ... on Forbidden { permission }') }));

// These tests count the bank calls each attempt makes: the record cache stays off.
const { kit, bearer, jwtConfig } = useJwtKit({
  cache: false,
  // The README's webhook examples take the configured codes, as npm start's embedded sandbox has them.
  webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
  apiKeys: [{ name: 'dashboard', sha256: sha256Hex(VIEWER_KEY), roles: ['viewer'], cardholderId: null }],
});

/** A JWT whose `scope` claim grants exactly these permissions (and what they imply). */
const jwtWith = (subject: string, permissions: readonly string[]) => bearer(subject, { scope: permissions.join(' ') });

/** Every permission but the ones that would grant `needed`, directly or by implication. */
const allBut = (needed: Permission) => ALL_PERMISSIONS.filter((permission) => !withImplied([permission]).has(needed));

const OUTCOME_OF_ANSWER: Record<string, string> = {
  UpstreamRejection: 'bank_rejection',
  ProgramNotSupported: 'bank_rejection',
  InvalidOperation: 'bank_rejection',
  ValidationError: 'typed_error',
  WebhookSubscriptionReserved: 'typed_error',
};

describe('every mutation needs its permission', () => {
  it('has the 25 mutations of the graph in the README, each with its permission here', () => {
    expect(MUTATIONS.map((m) => m.name).sort()).toEqual(Object.keys(NEEDS).sort());
  });

  it.each(MUTATIONS)(
    '$name: Forbidden without its permission, with no bank call; runs with it; one audit record each time',
    async ({ name, query }) => {
      await kit.fresh();
      const needed = NEEDS[name]!;
      const refused = await kit.execute(parseDocument(query), {}, await jwtWith(`no-${name}`, allBut(needed)));
      expect(refused.errors).toBeUndefined();
      expect(refused.data![name]).toMatchObject({ __typename: 'Forbidden', permission: needed, message: expect.stringContaining(needed) });
      expect(kit.calls()).toEqual([]);
      expect(kit.audit()).toEqual([
        expect.objectContaining({
          audit: 'mutation',
          field: name,
          outcome: 'forbidden',
          permission: needed,
          detail: 'Forbidden',
          caller: { kind: 'jwt', name: `no-${name}` },
        }),
      ]);

      await kit.resetCounts();
      const allowed = await kit.execute(parseDocument(query), {}, await jwtWith(`only-${name}`, [needed]));
      expect(allowed.errors).toBeUndefined();
      const answer = (allowed.data as Record<string, { __typename: string }>)[name]!;
      expect(answer.__typename).not.toBe('Forbidden');
      expect(kit.calls().length).toBeGreaterThan(0);
      const [record, ...more] = kit.audit();
      expect(more).toEqual([]);
      const outcome = answer.__typename.endsWith('Success') ? 'success' : OUTCOME_OF_ANSWER[answer.__typename];
      expect(record).toMatchObject({ field: name, outcome, permission: null, caller: { kind: 'jwt', name: `only-${name}` }, roles: [] });
    },
  );

  it('lets a caller with only cards:control freeze and unfreeze a card, and nothing more with cardUpdate', async () => {
    await kit.fresh();
    const control = await jwtWith('card-desk', ['cards:control']);
    const freeze = `mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", status: INACTIVE, updatedBy: "Ava Chen"}) { __typename ... on CardUpdateSuccess { card { status } } ... on Forbidden { permission } } }`;
    expect((await kit.execute(parseDocument(freeze), {}, control)).data).toEqual({
      cardUpdate: { __typename: 'CardUpdateSuccess', card: { status: 'INACTIVE' } },
    });
    const close = freeze.replace('INACTIVE', 'CLOSED');
    expect((await kit.execute(parseDocument(close), {}, control)).data).toEqual({
      cardUpdate: { __typename: 'Forbidden', permission: 'cards:write' },
    });
    const limits = `mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", status: ACTIVE, currency: "USD", limits: [{interval: DAILY, amount: "99999"}], updatedBy: "Ava Chen"}) { __typename ... on Forbidden { permission } } }`;
    expect((await kit.execute(parseDocument(limits), {}, control)).data).toEqual({
      cardUpdate: { __typename: 'Forbidden', permission: 'cards:write' },
    });
    expect(kit.audit().map((r) => r.outcome)).toEqual(['success', 'forbidden', 'forbidden']);
    expect(kit.calls('/svc/api/v1/card', 'PATCH')).toHaveLength(1);
  });

  it('denies by default: a JWT that names no role or permission may run nothing, and me says so', async () => {
    const nobody = await jwtWith('nobody', []);
    await kit.resetCounts();
    const result = await kit.execute(parseDocument('{ me { name kind roles permissions mutations } balances { currency } }'), {}, nobody);
    expect(result.data).toEqual({ me: { name: 'nobody', kind: 'JWT', roles: [], permissions: [], mutations: [] }, balances: null });
    expect(result.errors).toEqual([
      expect.objectContaining({ path: ['balances'], extensions: { code: 'FORBIDDEN', permission: 'accounts:read' } }),
    ]);
    expect(kit.calls()).toEqual([]);
  });
});

describe('a read-only key', () => {
  const viewer = { 'x-api-key': VIEWER_KEY };

  it('runs the dashboard and the cards screen, every field answered', async () => {
    const screen = (name: string) => OPERATIONS.find((op) => op.operationName === name)!;
    const dashboard = await kit.execute(parseDocument(screen('Dashboard').query), {}, viewer);
    expect(dashboard.errors).toBeUndefined();
    expect(dashboard.data!.accounts.nodes.length).toBe(5);
    expect(dashboard.data!.balances.length).toBeGreaterThan(0);
    expect(dashboard.data!.upcomingPayouts.nodes[0].beneficiary.companyName).toEqual(expect.any(String));
    const cards = await kit.execute(parseDocument(screen('CardsScreen').query), { cards: 10 }, viewer);
    expect(cards.errors).toBeUndefined();
    expect(cards.data!.cards.nodes.map((card: { cardholder: { email: string } }) => card.cardholder.email)).toEqual([
      'ava.chen@acme.example',
      'ava.chen@acme.example',
    ]);
  });

  it('knows what it may do: me lists its role, permissions and the mutations it may run', async () => {
    const result = await kit.execute(parseDocument('{ me { kind name roles permissions mutations cardholderUpstreamId } }'), {}, viewer);
    expect(result.data!.me).toEqual({
      kind: 'API_KEY',
      name: 'dashboard',
      roles: ['viewer'],
      permissions: ['session:create', ...ALL_PERMISSIONS.filter((p) => p.endsWith(':read'))],
      mutations: ['accessTokenCreate'],
      cardholderUpstreamId: null,
    });
  });

  it('sends no payout: Forbidden names payouts:write, the bank sees nothing, the audit trail names the key', async () => {
    await kit.resetCounts();
    const payout = MUTATIONS.find((m) => m.name === 'payoutCreate')!;
    const result = await kit.execute(parseDocument(payout.query), {}, viewer);
    expect(result.data!.payoutCreate).toMatchObject({ __typename: 'Forbidden', permission: 'payouts:write' });
    expect(kit.calls()).toEqual([]);
    expect(kit.audit()).toEqual([
      {
        audit: 'mutation',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        caller: { kind: 'api-key', name: 'dashboard' },
        roles: ['viewer'],
        permissions: ['session:create', ...ALL_PERMISSIONS.filter((p) => p.endsWith(':read'))].sort(),
        cardholder: null,
        operation: null,
        field: 'payoutCreate',
        targets: { beneficiaryId: 'ben_demo_de', quoteId: 'quo_demo_payout' },
        result: null,
        idempotencyKey: null,
        idempotencyKeyBy: null,
        outcome: 'forbidden',
        detail: 'Forbidden',
        permission: 'payouts:write',
        clientGone: false,
        requestId: expect.any(String),
        clientRequestId: null,
        traceId: null,
      },
    ]);
  });

  it('gets a node of a type it may read, and FORBIDDEN for one it may not, before any read', async () => {
    const nobody = await jwtWith('cards-only', ['cards:read']);
    await kit.resetCounts();
    const account = encodeGlobalID('Account', 'acc_demo_usd');
    const card = encodeGlobalID('Card', 'crd_demo_ava_v');
    const result = await kit.execute(
      parseDocument(`{ node(id: "${account}") { id } nodes(ids: ["${card}", "${account}"]) { id } }`),
      {},
      nobody,
    );
    expect(result.data).toEqual({ node: null, nodes: [{ id: card }, null] });
    expect(result.errors?.map((e) => [e.path, e.extensions?.code, e.extensions?.permission])).toEqual([
      [['node'], 'FORBIDDEN', 'accounts:read'],
      [['nodes', 1], 'FORBIDDEN', 'accounts:read'],
    ]);
    // The card was read; the account never was.
    expect(kit.calls().map((c) => c.path)).toEqual(['/svc/api/v1/card']);
  });
});

describe('over HTTP', () => {
  it('answers a forbidden field with 200 and the rest of the screen', async () => {
    const listening = await startKit({
      cache: false,
      listen: true,
      auth: { mode: 'service', apiKeys: [], jwt: jwtConfig(), allowedOrigins: [] },
    });
    try {
      const answer = await postGraphql(
        `${listening.baseUrl}/graphql`,
        { query: '{ cards(first: 5) { nodes { upstreamId } } balances { currency } }' },
        await jwtWith('card-reader', ['cards:read']),
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data.cards.nodes.length).toBeGreaterThan(0);
      expect(answer.body.data.balances).toBeNull();
      expect(answer.body.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([
        { code: 'FORBIDDEN', permission: 'accounts:read' },
      ]);
    } finally {
      await listening.close();
    }
  });
});

/** Untyped documents for kit.execute, which prints what it is given. */
function parseDocument(query: string) {
  return parse(query) as TypedDocumentNode<Record<string, any>, Record<string, unknown> | undefined>;
}
