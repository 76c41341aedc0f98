import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/schema/index.ts';
import { useKit } from '../helpers/kit.ts';
import { readmeExamples } from '../helpers/readme-examples.ts';

/** The README's operation examples are the front door: each must run against the schema as printed. */
const examples = readmeExamples();
const schema = buildSchema();

describe('README operations', () => {
  it.each(examples)('$name: the example is a valid operation', ({ example }) => {
    expect(validate(schema, parse(example)).map((e) => e.message)).toEqual([]);
  });

  it('holds no placeholder: every id and value is one the demo data has', () => {
    expect(examples.length).toBeGreaterThanOrEqual(52);
    expect(examples.filter((e) => /…|\.\.\."/.test(e.example)).map((e) => e.name)).toEqual([]);
  });

  it('shows every root query and mutation field', () => {
    const shown = examples.map((e) => e.example).join('\n');
    const roots = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
    const missing = roots.filter((field) => !new RegExp(`\\b${field}\\b`).test(shown));
    expect(missing).toEqual([]);
  });
});

/**
 * Run as written, in document order, against the demo sandbox as `npm start` serves it: an example
 * fails on any error, a null result, an empty list where the demo data has entries, a mutation that
 * lands on an error member, or one that does not select `MutationError` (a failure would print `{}`).
 */
const ERROR_TYPES = new Set([
  'InvalidOperation',
  'ProgramNotSupported',
  'UpstreamRejection',
  'ValidationError',
  'WebhookSubscriptionReserved',
]);

function problemsOf(example: string, result: { errors?: readonly { message: string }[]; data?: Record<string, unknown> | null }): string[] {
  if (result.errors?.length) return result.errors.map((error) => error.message);
  const problems: string[] = [];
  const mutation = example.startsWith('mutation');
  if (mutation && !example.includes('... on MutationError')) problems.push('selects no MutationError member');
  for (const [field, value] of Object.entries(result.data ?? {})) {
    if (value === null || value === undefined) problems.push(`${field} is null`);
    else if (mutation) {
      const outcome = value as { __typename?: string; message?: string };
      if (outcome.__typename === undefined) problems.push(`${field} selects no __typename`);
      else if (ERROR_TYPES.has(outcome.__typename)) problems.push(`${field}: ${outcome.__typename} ${outcome.message ?? ''}`);
    } else problems.push(...emptyLists(field, value));
  }
  return problems;
}

/** Lists (and connections' `nodes`) that came back empty, down to three levels. */
function emptyLists(path: string, value: unknown, depth = 0): string[] {
  if (depth > 3 || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.length === 0 ? [`${path} is empty`] : emptyLists(`${path}[0]`, value[0], depth + 1);
  return Object.entries(value).flatMap(([key, inner]) => emptyLists(`${path}.${key}`, inner, depth + 1));
}

describe('README operations, run as written', () => {
  // As `npm start` runs: the embedded sandbox's webhook codes, the gateway's own subscriptions filed,
  // the record cache on.
  const kit = useKit({
    listen: true,
    reconcileWebhooks: true,
    cache: true,
    webhooks: { agentCode: 'sandbox-agent', subagentCode: 'sandbox-subagent', companyCode: 'sandbox-company' },
  });

  it('every example returns data, in document order, against the demo sandbox', async () => {
    const failures: string[] = [];
    for (const { name, example } of examples) {
      const result = await kit.execute(parse(example));
      for (const problem of problemsOf(example, result as never)) failures.push(`${name}: ${problem}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
