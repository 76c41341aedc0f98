import { readFile } from 'node:fs/promises';
import {
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/schema/index.ts';
import { printSchemaWithCosts } from '../../src/schema/cost-directives.ts';
import { rootRequirements } from '../../src/schema/requirements.ts';

const schema = buildSchema();

describe('who may do what', () => {
  it('declares the permission of every query, mutation and subscription field', () => {
    const declared = rootRequirements(schema);
    expect(declared.length).toBeGreaterThan(55);
    expect(declared.filter((field) => field.requirement.kind === 'undeclared').map((field) => `${field.root}.${field.name}`)).toEqual([]);
    // Only these may be run by any caller: who it is, a record by id, whose type then decides, and
    // the price of its own operation.
    expect(declared.filter((field) => field.requirement.kind === 'anyone').map((field) => `${field.root}.${field.name}`)).toEqual([
      'Query.me',
      'Query.node',
      'Query.nodes',
      'Query.rateLimit',
    ]);
  });

  it('declares the permission that reads every Node type', () => {
    const nodes = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node'),
    );
    const undeclared = nodes.filter(
      (type) => !(type.extensions as { pothosOptions?: { authScopes?: { permission?: string } } }).pothosOptions?.authScopes?.permission,
    );
    expect(nodes.length).toBe(10);
    expect(undeclared.map((type) => type.name)).toEqual([]);
  });

  it("says in each root field's description what it needs, as GraphiQL shows it", () => {
    const fields = schema.getMutationType()!.getFields();
    expect(fields.payoutCreate!.description).toMatch(/Needs the permission `payouts:write`\.$/);
    expect(fields.cardUpdate!.description).toMatch(
      /Needs the permission `cards:write`, or only `cards:control` when the input only changes status between ACTIVE and INACTIVE\.$/,
    );
    expect(schema.getQueryType()!.getFields().me!.description).toMatch(/Any caller may run it\.$/);
    expect(schema.getType('Card')!.description).toMatch(/Reading it needs the permission `cards:read`, wherever it appears\.$/);
  });

  it('fails the check above for a field that declares nothing', () => {
    const bare = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { secret: { type: GraphQLString } } }) });
    expect(rootRequirements(bare).map((field) => field.requirement.kind)).toEqual(['undeclared']);
  });
});

describe('schema conventions', () => {
  it('describes every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of field.args) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) if (!field.description) missing.push(`${type.name}.${field.name}`);
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  const NOUNS = [
    'accessToken',
    'account',
    'beneficiary',
    'cardholder',
    'card',
    'conversion',
    'directDebit',
    'mandate',
    'payout',
    'quote',
    'wallet',
    'webhookSubscription',
  ];

  it('names mutations noun first, with one input and an optional idempotency key, returning a result union', () => {
    const mutations = Object.values(schema.getMutationType()!.getFields());
    expect(mutations.map((m) => m.name).sort()).toEqual([
      'accessTokenCreate',
      'accountClose',
      'accountCreate',
      'beneficiaryCreate',
      'beneficiaryDelete',
      'beneficiaryUpdate',
      'cardActivate',
      'cardAssign',
      'cardCreate',
      'cardPinReset',
      'cardRecharge',
      'cardUpdate',
      'cardholderCreate',
      'cardholderDelete',
      'cardholderUpdate',
      'conversionCreate',
      'directDebitCancel',
      'mandateCancel',
      'payoutCancel',
      'payoutCreate',
      'quoteCreate',
      'walletCreate',
      'webhookSubscriptionCreate',
      'webhookSubscriptionDelete',
      'webhookSubscriptionUpdate',
    ]);
    for (const mutation of mutations) {
      // Noun first: the name starts with the entity it acts on, so a domain's mutations sit together.
      const noun = NOUNS.find((n) => mutation.name.startsWith(n));
      expect(noun, mutation.name).toBeDefined();
      expect(mutation.name.slice(noun!.length)).toMatch(/^[A-Z][a-zA-Z]+$/);
      const args = mutation.args.map((a) => a.name).filter((a) => a !== 'idempotencyKey');
      expect(args).toEqual(['input']);
      expect(mutation.args.find((a) => a.name === 'input')!.type.toString()).toMatch(/Input!$/);
      const type = mutation.type.toString().replace('!', '');
      const result = schema.getType(type);
      expect(isUnionType(result)).toBe(true);
    }
  });

  it('makes every entity with an id a Node', () => {
    const account = schema.getType('Account');
    expect(isObjectType(account) && account.getInterfaces().map((i) => i.name)).toEqual(['Node']);
  });

  it("prints the bank calls of each field as @cost and each connection's size as @listSize, for a router's demand control", () => {
    const printed = printSchemaWithCosts(schema);
    const card = printed.slice(
      printed.indexOf('\ntype Card implements Node {'),
      printed.indexOf('\n}', printed.indexOf('\ntype Card implements Node {')),
    );
    const line = (field: string) => card.split('\n').find((text) => text.startsWith(`  ${field}:`));
    expect(line('cardholder')).toBe('  cardholder: Cardholder @cost(weight: 1)');
    // A field its parent answers costs nothing and is left bare.
    expect(line('maskedNumber')).not.toContain('@cost');
    expect(printed).toContain(
      '): CardConnection @cost(weight: 1) @listSize(slicingArguments: ["first", "last"], sizedFields: ["edges", "nodes"], assumedSize: 20, requireOneSlicingArgument: false)',
    );
  });

  it('matches the committed schema/schema.graphql', async () => {
    const committed = await readFile(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');
    // The committed file is codegen's print; compare type by type, ignoring blank-line layout.
    const squash = (sdl: string) =>
      sdl
        .replace(/\n\s*\n/g, '\n')
        .replace(/^schema \{[^}]*\}\n/m, '')
        .trim();
    expect(squash(committed)).toBe(squash(printSchemaWithCosts(schema)));
  });
});
