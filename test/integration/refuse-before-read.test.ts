import { encodeGlobalID } from '@pothos/plugin-relay';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, getNamedType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { domainGuards, domainsOf } from '../../src/authorization/domains.ts';
import { buildSchema } from '../../src/schema/index.ts';
import { typePermission } from '../../src/schema/requirements.ts';
import type { Permission } from '../../src/authorization/permissions.ts';
import { postGraphql } from '../helpers/http.ts';
import { useJwtKit } from '../helpers/jwt-kit.ts';

/**
 * Refuse before reading (docs/permissions.md, "How a refusal looks"): a field that returns another
 * domain's records (a link, a list, a connection, a summary) checks that domain's permission before
 * anything is read, so the refusal costs the bank nothing and answers the same whether the record
 * exists, or the list is empty, or not. The links are found by walking the schema, not listed by hand.
 */

const schema = buildSchema();
const guards = domainGuards(schema);

/** A record of each Node type that has links to other domains, from the sandbox's demo data. */
const SAMPLES: Record<string, string> = {
  Card: 'crd_demo_ava_v',
  Cardholder: 'chd_demo_ava',
  Payout: 'pay_demo_1',
};

/** Every guarded field of a Node type: the links a caller reaches with `node(id:)` and its type's permission alone. */
const NODE_LINKS = [...guards]
  .map(([where, needs]) => ({ where, parent: where.split('.')[0]!, field: where.split('.')[1]!, needs }))
  .filter(({ parent }) => {
    const type = schema.getType(parent);
    return isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node');
  });

describe('the domains of the graph, walked', () => {
  it('gives every type that can hold fields a domain, or a reason it carries none', () => {
    expect(domainsOf(schema).unclassified).toEqual([]);
  });

  it("guards every field whose type carries another domain's data with that domain's permission", () => {
    const { domains } = domainsOf(schema);
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      const own = domains.get(type.name)?.permission ?? null;
      for (const field of Object.values(type.getFields())) {
        const target = domains.get(getNamedType(field.type).name)?.permission ?? null;
        const expected = target !== null && target !== own ? target : undefined;
        expect(guards.get(`${type.name}.${field.name}`), `${type.name}.${field.name}`).toBe(expected);
      }
    }
  });

  it('guards the links the security review named', () => {
    expect(Object.fromEntries([...guards].filter(([where]) => /^(Card|Cardholder|Payout|Wallet)\./.test(where)))).toEqual({
      'Card.cardholder': 'cardholders:read',
      'Card.cardholderSummary': 'cardholders:read',
      'Cardholder.cards': 'cards:read',
      'Cardholder.wallet': 'wallets:read',
      'Cardholder.wallets': 'wallets:read',
      'Payout.beneficiary': 'beneficiaries:read',
      'Payout.quote': 'fx:read',
      'Wallet.cardholder': 'cardholders:read',
    });
  });

  it('refuses to build a schema with a type whose domain nobody declared', () => {
    const Secret = new GraphQLObjectType({ name: 'Secret', fields: { value: { type: GraphQLString } } });
    const bare = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { secret: { type: Secret } } }) });
    expect(() => domainGuards(bare)).toThrow(/Types with no declared domain: Secret\./);
  });

  it('has a sample record for every Node type with a link to another domain', () => {
    expect(new Set(NODE_LINKS.map(({ parent }) => parent))).toEqual(new Set(Object.keys(SAMPLES)));
  });
});

// The tests count the bank calls each read makes: the record cache stays off.
const { kit, bearer } = useJwtKit({ cache: false, listen: true, freshEachTest: true });

/** A caller holding only these permissions (a JWT whose `scope` grants them). */
const only = (subject: string, ...permissions: Permission[]) => bearer(subject, { scope: permissions.join(' ') });

const ADMIN = () => bearer('refuse-before-read-admin', { roles: ['admin'] });

/** `node(id:)` of a `parent` record, with `selection` of it. */
function nodeQuery(parent: string, upstreamId: string, selection: string): string {
  return `{ node(id: ${JSON.stringify(encodeGlobalID(parent, upstreamId))}) { __typename ... on ${parent} { ${selection} } } }`;
}

/** The answer, and how many calls the bank got for it. */
async function asked(query: string, headers: Record<string, string>) {
  await kit.resetCounts();
  const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query }, headers);
  return { body: answer.body, calls: kit.calls().length };
}

describe('a link to another domain, without its permission', () => {
  it.each(NODE_LINKS)('$where is FORBIDDEN ($needs) before anything of it is read', async ({ parent, field, needs }) => {
    const caller = await only(`reader-of-${parent}`, typePermission(schema.getType(parent)!)!);
    const bare = await asked(nodeQuery(parent, SAMPLES[parent]!, 'upstreamId'), caller);
    const linked = await asked(nodeQuery(parent, SAMPLES[parent]!, `upstreamId ${field} { __typename }`), caller);
    expect(bare.body.errors).toBeUndefined();
    expect(linked.body.errors).toEqual([
      {
        message: `Forbidden: ${parent}.${field} needs the permission ${needs}, which this caller does not have`,
        path: ['node', field],
        locations: expect.any(Array),
        extensions: { code: 'FORBIDDEN', permission: needs },
      },
    ]);
    expect(linked.body.data.node[field]).toBeNull();
    // The parent's own read, and nothing for the link.
    expect(linked.calls).toBe(bare.calls);
  });

  it('answers a cardholder with cards and wallets exactly as one with none', async () => {
    const caller = await only('cardholders-only', 'cardholders:read');
    const selection = 'cards(first: 5) { nodes { upstreamId } } wallets { upstreamId } wallet { upstreamId }';
    const withSome = await asked(nodeQuery('Cardholder', 'chd_demo_ava', selection), caller);
    const withNone = await asked(nodeQuery('Cardholder', 'chd_demo_new', selection), caller);
    expect(withSome.body.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([
      { code: 'FORBIDDEN', permission: 'cards:read' },
      { code: 'FORBIDDEN', permission: 'wallets:read' },
      { code: 'FORBIDDEN', permission: 'wallets:read' },
    ]);
    expect(withNone.body).toEqual(withSome.body);
    expect(withNone.calls).toBe(withSome.calls);
  });

  it('refuses a link with arguments as one without', async () => {
    const caller = await only('cardholders-only-args', 'cardholders:read');
    const answer = await asked(
      nodeQuery(
        'Cardholder',
        'chd_demo_ava',
        'wallet(currency: "USD") { upstreamId } cards(first: 5, status: ACTIVE) { nodes { upstreamId } }',
      ),
      caller,
    );
    expect(answer.body.errors.map((e: { path: unknown; extensions: unknown }) => [e.path, e.extensions])).toEqual([
      [['node', 'wallet'], { code: 'FORBIDDEN', permission: 'wallets:read' }],
      [['node', 'cards'], { code: 'FORBIDDEN', permission: 'cards:read' }],
    ]);
  });

  it("answers a card's deleted cardholder exactly as an existing one", async () => {
    const caller = await only('cards-only', 'cards:read');
    const selection = 'cardholder { upstreamId } cardholderSummary { email }';
    const before = await asked(nodeQuery('Card', 'crd_demo_ava_v', selection), caller);
    const deleted = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: 'mutation { cardholderDelete(input: { cardholderId: "chd_demo_ava" }) { __typename } }' },
      await ADMIN(),
    );
    expect(deleted.body.data.cardholderDelete.__typename).toBe('CardholderDeleteSuccess');
    const after = await asked(nodeQuery('Card', 'crd_demo_ava_v', selection), caller);
    expect(before.body.errors.map((e: { extensions: unknown }) => e.extensions)).toEqual([
      { code: 'FORBIDDEN', permission: 'cardholders:read' },
      { code: 'FORBIDDEN', permission: 'cardholders:read' },
    ]);
    expect(after.body).toEqual(before.body);
    expect(after.calls).toBe(before.calls);
  });

  it('refuses me.cardholder without cardholders:read, whether or not the caller is bound, and reads nothing', async () => {
    const answer = await asked('{ me { name cardholder { upstreamId } } }', await only('payouts-reader', 'payouts:read'));
    expect(answer.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', permission: 'cardholders:read' });
    expect(answer.body.data.me).toEqual({ name: 'payouts-reader', cardholder: null });
    expect(answer.calls).toBe(0);
  });

  it('still reads each link for a caller who holds both permissions', async () => {
    const answer = await asked(
      nodeQuery('Card', 'crd_demo_ava_v', 'cardholder { upstreamId } cardholderSummary { email }'),
      await only('both', 'cards:read', 'cardholders:read'),
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.node.cardholder).toEqual({ upstreamId: 'chd_demo_ava' });
    expect(answer.body.data.node.cardholderSummary.email).toEqual(expect.stringContaining('@'));
  });
});

/** The README's payout, with another amount. */
const payoutInput = (amount: string) =>
  `input: { beneficiaryId: "ben_demo_de", quoteId: "quo_demo_payout", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "${amount}", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "Invoice 114", sourceOfFunds: "Revenue" }`;

describe('a mutation, without its permission', () => {
  it('answers Forbidden whatever the input, and no input rule', async () => {
    const viewer = await only('viewer-probe', 'payouts:read', 'fx:read');
    const probe = await asked(
      `mutation { payoutCreate(${payoutInput('-5')}) { __typename ... on Forbidden { permission message } ... on ValidationError { issues { path message } } } }`,
      viewer,
    );
    expect(probe.body.errors).toBeUndefined();
    expect(probe.body.data.payoutCreate).toEqual({
      __typename: 'Forbidden',
      permission: 'payouts:write',
      message: 'Forbidden: Mutation.payoutCreate needs the permission payouts:write, which this caller does not have',
    });
    expect(probe.calls).toBe(0);
    expect(kit.audit().at(-1)).toMatchObject({ field: 'payoutCreate', outcome: 'forbidden', permission: 'payouts:write' });
  });

  it('answers a query field FORBIDDEN whatever its arguments, before their rules', async () => {
    const answer = await asked(
      '{ fxRate(sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "-5") { sourceAmount { amount } } }',
      await only('no-fx', 'payouts:read'),
    );
    expect(answer.body.errors.map((e: { path: unknown; extensions: unknown }) => [e.path, e.extensions])).toEqual([
      [['fxRate'], { code: 'FORBIDDEN', permission: 'fx:read' }],
    ]);
    expect(answer.calls).toBe(0);
  });

  it('runs the input rules, as before, for a caller who holds the permission', async () => {
    const treasurer = await only('treasurer-typo', 'payouts:write');
    const answer = await asked(
      `mutation { payoutCreate(${payoutInput('-5')}) { __typename ... on ValidationError { issues { path message } } } }`,
      treasurer,
    );
    expect(answer.body.data.payoutCreate.__typename).toBe('ValidationError');
    expect(answer.calls).toBe(0);
  });
});
