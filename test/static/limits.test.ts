import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeGlobalID } from '@pothos/plugin-relay';
import {
  graphql,
  Kind,
  parse,
  print,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
} from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { anonymous } from '../../src/authentication/identity.ts';
import { EVERYTHING } from '../../src/authentication/authenticate.ts';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../bench/operations.ts';
import { DEFAULT_LIMITS, loadConfig, SHIPPED_TRUSTED_DOCUMENTS } from '../../src/settings/index.ts';
import { silentLogger } from '../../src/platform/logger.ts';
import { buildSchema } from '../../src/schema/index.ts';
import { persistedDocuments } from '../../src/limits/documents.ts';
import { whatMayBeAsked } from '../../src/transport/request-path.ts';
import { operationCost } from '../../src/limits/operation-limits.ts';
import { MAX_PAGE_SIZE } from '../../src/limits/page-size.ts';
import { sha256Hex as sha256 } from '../../src/platform/secrets.ts';
import { loadTrustedDocuments } from '../../src/limits/trusted-documents.ts';
import { createPersistedQueryStore } from '../../src/limits/persisted-queries.ts';
import * as generated from '../generated/graphql.ts';

/**
 * The default limits fit what the project ships: every operation of schema/operations/, the
 * benchmark's and the README's examples pass them with margin (3 levels of depth, half the cost and
 * half the tokens to spare), with every page size at its largest. And the trusted documents are
 * exactly those operations.
 */
const schema = buildSchema();

interface Shipped {
  name: string;
  document: DocumentNode;
}

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const exampleFiles = readdirSync(new URL('../../schema/operations/', import.meta.url)).map((file) => ({
  file,
  document: parse(read(`../../schema/operations/${file}`)),
}));
/** Codegen resolves a fragment spread against every file, so do we. */
const fragments = new Map(
  exampleFiles
    .flatMap(({ document }) => document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION))
    .map((f) => [f.name.value, f]),
);

function usedFragments(node: ASTNode, seen = new Set<FragmentDefinitionNode>()): Set<FragmentDefinitionNode> {
  visit(node, {
    FragmentSpread(spread) {
      const fragment = fragments.get(spread.name.value)!;
      if (!seen.has(fragment)) usedFragments(fragment, seen.add(fragment));
    },
  });
  return seen;
}

/** Each operation of a document, with the fragments it uses. */
function operationsOf(document: DocumentNode, prefix: string): Shipped[] {
  return document.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => ({
      name: `${prefix}${operation.name?.value ?? ''}`,
      document: { kind: Kind.DOCUMENT, definitions: [operation, ...usedFragments(operation)] },
    }));
}

const examples = exampleFiles.flatMap(({ file, document }) => operationsOf(document, `${file}: `));
const bench = operationsOf(parse(read('../../bench/operations.graphql')), 'bench: ');
const readme = read('../../README.md');
const readmeSection = readme.slice(readme.indexOf('## Operations'), readme.indexOf('## Where to go next'));
const readmeExamples = [...readmeSection.matchAll(/^\| `([^`]+)`[^|]*\| `(.+)` \|$/gm)].flatMap(([, name, example]) =>
  operationsOf(parse(example!), `README ${name}: `),
);
const shipped = [...examples, ...bench, ...readmeExamples];

/** Every variable given as a page size set to the largest page. */
function largestPages(document: DocumentNode): Record<string, number> {
  const variables: Record<string, number> = {};
  visit(document, {
    Argument(argument) {
      if ((argument.name.value === 'first' || argument.name.value === 'last') && argument.value.kind === Kind.VARIABLE) {
        variables[argument.value.name.value] = MAX_PAGE_SIZE;
      }
    },
  });
  return variables;
}

const MARGIN_LIMITS = {
  ...DEFAULT_LIMITS,
  maxDepth: DEFAULT_LIMITS.maxDepth - 3,
  maxCost: DEFAULT_LIMITS.maxCost / 2,
  maxTokens: DEFAULT_LIMITS.maxTokens / 2,
};

/** Yoga with the limit plugins only: whatever passes them is answered `{}` instead of executed. */
const stopped: Plugin = {
  onExecute: ({ setResultAndStopExecution }) => setResultAndStopExecution({ data: {} }),
  onSubscribe: ({ setResultAndStopExecution }) => setResultAndStopExecution({ data: {} }),
};
const limitsOnly = createYoga({
  schema,
  plugins: [
    ...whatMayBeAsked({
      limits: MARGIN_LIMITS,
      persisted: persistedDocuments(MARGIN_LIMITS, silentLogger, createPersistedQueryStore({ logger: silentLogger, maxKb: 5_120 })),
      fromRouter: undefined,
    }),
    stopped,
  ],
  maskedErrors: false,
  logging: false,
});

describe('the shipped operations pass the default limits with margin', () => {
  it('finds them all', () => {
    expect(examples.length).toBeGreaterThan(50);
    expect(bench.map((o) => o.name)).toEqual([
      'bench: Dashboard',
      'bench: CardsScreen',
      'bench: CardsScreenDeferred',
      'bench: FxScreen',
      'bench: DirectDebitScreen',
      'bench: BenchCardCreate',
      'bench: OneCallBalances',
      'bench: BankEventsFeed',
    ]);
    expect(readmeExamples.length).toBeGreaterThan(50);
  });

  it.each(shipped)('$name', async ({ document }) => {
    const variables = largestPages(document);
    const response = await limitsOnly.fetch('http://limits.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json' },
      body: JSON.stringify({ query: print(document), variables }),
    });
    // Only page sizes are given: the other required variables are missing, which is refused too
    // (BAD_USER_INPUT naming the variable), but that is not a limit.
    const { errors = [] } = (await response.json()) as { errors?: { message: string; extensions?: { variable?: string } }[] };
    expect(errors.filter((error) => error.extensions?.variable === undefined).map((error) => error.message)).toEqual([]);
    expect(operationCost(schema, { document, operationName: undefined, variableValues: variables })).toBeLessThanOrEqual(
      MARGIN_LIMITS.maxCost,
    );
  });

  it('the benchmark sends its documents as written in bench/operations.graphql', () => {
    for (const operation of OPERATIONS) {
      expect(bench.find((b) => b.name === `bench: ${operation.operationName}`)).toBeDefined();
      expect(print(parse(operation.query))).toBe(operation.query);
    }
  });
});

describe('the trusted documents', () => {
  const manifest = JSON.parse(readFileSync(SHIPPED_TRUSTED_DOCUMENTS, 'utf8')) as Record<string, string>;

  it('are every operation of schema/operations/ and bench/operations.graphql, each named by the SHA-256 of its text', () => {
    const named = [...examples, ...bench].map((o) => o.name.split(': ')[1]).sort();
    const inManifest = Object.values(manifest).map((text) => parse(text).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!);
    expect(inManifest.map((d) => d.name!.value).sort()).toEqual(named);
    for (const [id, text] of Object.entries(manifest)) expect(id).toBe(`sha256:${sha256(text)}`);
    expect(loadTrustedDocuments(SHIPPED_TRUSTED_DOCUMENTS).size).toBe(named.length);
  });

  it('are the ids the typed documents carry', () => {
    const ids = Object.values(generated)
      .filter(
        (value): value is DocumentNode & { __meta__: { hash: string } } =>
          typeof value === 'object' && value !== null && '__meta__' in value,
      )
      .map((document) => document.__meta__.hash);
    expect(ids.sort()).toEqual(Object.keys(manifest).sort());
  });

  it('a manifest whose id is not its document, or no manifest, stops the gateway from starting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trusted-'));
    const tampered = join(dir, 'tampered.json');
    writeFileSync(tampered, JSON.stringify({ [`sha256:${sha256('{ balances { currency } }')}`]: '{ accounts { nodes { id } } }' }));
    expect(() => loadTrustedDocuments(tampered)).toThrow(/is not the SHA-256 of its document/);
    expect(() => loadTrustedDocuments(join(dir, 'missing.json'))).toThrow(/cannot read the manifest/);
  });
});

describe('configuration', () => {
  it('production turns introspection and GraphiQL off unless switched on', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).limits).toMatchObject({ production: true, introspection: false, graphiql: false });
    expect(loadConfig({ NODE_ENV: 'production', INTROSPECTION: 'true', GRAPHIQL: 'on' }).limits).toMatchObject({
      introspection: true,
      graphiql: true,
    });
    expect(loadConfig({}).limits).toMatchObject({ production: false, introspection: true, graphiql: true });
  });

  it('TRUSTED_DOCUMENTS=true means the shipped manifest; a path, that file; false or unset, none', () => {
    expect(loadConfig({ TRUSTED_DOCUMENTS: 'true' }).limits.trustedDocuments).toBe(SHIPPED_TRUSTED_DOCUMENTS);
    expect(loadConfig({ TRUSTED_DOCUMENTS: '/etc/gateway/documents.json' }).limits.trustedDocuments).toBe('/etc/gateway/documents.json');
    expect(loadConfig({ TRUSTED_DOCUMENTS: 'false' }).limits.trustedDocuments).toBeUndefined();
    expect(loadConfig({}).limits.trustedDocuments).toBeUndefined();
  });

  it('reads every limit from the environment', () => {
    const env = { MAX_DEPTH: '8', MAX_COST: '1000', MAX_ALIASES: '2', MAX_DIRECTIVES: '3', MAX_TOKENS: '500', MAX_BODY_BYTES: '2048' };
    expect(loadConfig(env).limits).toMatchObject({
      maxDepth: 8,
      maxCost: 1000,
      maxAliases: 2,
      maxDirectives: 3,
      maxTokens: 500,
      maxBodyBytes: 2048,
    });
  });
});

describe('the schema refuses oversized pages itself', () => {
  // Straight against the schema, without the gateway's pre-execution checks: the resolvers say no too
  // (to a caller who may read everything, so that the page size is what is refused).
  const run = (source: string) => graphql({ schema, source, contextValue: { caller: anonymous(EVERYTHING) } });

  it('a paged connection over 100 or negative', async () => {
    const large = await run('{ balanceHistory(first: 101) { nodes { upstreamId } } }');
    expect(large.errors?.map((e) => e.message)).toEqual(['Validation error: first: must be at most 100 (the largest page)']);
    const negative = await run('{ beneficiaries(last: -5) { nodes { id } } }');
    expect(negative.errors?.map((e) => e.message)).toEqual(['Validation error: last: must not be negative']);
  });

  it('nodes with more than 100 ids', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `"${encodeGlobalID('Account', `acc_${i}`)}"`).join(', ');
    const result = await run(`{ nodes(ids: [${ids}]) { id } }`);
    expect(result.errors?.map((e) => e.message)).toEqual(['Validation error: ids: must hold at most 100 items']);
  });
});
