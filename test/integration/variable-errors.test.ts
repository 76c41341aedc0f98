import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { runWs } from '../helpers/auth-clients.ts';
import { postGraphql } from '../helpers/http.ts';
import { afterAnswer, useKit } from '../helpers/kit.ts';
import { record } from '../helpers/leak-scan.ts';

/**
 * Variables that do not fit the operation are the caller's mistake, told before execution with a
 * code and the place: BAD_USER_INPUT, the variable's name, and the path inside it, so a form can
 * mark the field. The same for a negative @stream(initialCount:), literal or variable. Nothing is
 * sent to the bank, and nothing is logged at error level.
 */

const lines: Record<string, any>[] = [];
const kit = useKit({
  listen: true,
  logger: createLogger('debug', {
    write: (line: string) => (lines.push(JSON.parse(line) as Record<string, any>), record('gateway log', line)),
  }),
});

const QUOTE = `mutation Quote($input: QuoteCreateInput!) { quoteCreate(input: $input) { __typename ... on MutationError { message } } }`;
const quoteInput = (overrides: Record<string, unknown>) => ({
  sourceCurrency: 'USD',
  destinationCurrency: 'EUR',
  sourceAmount: '100.00',
  quoteType: 'CONVERSION',
  conversionSchedule: 'IMMEDIATE',
  lockPeriod: 'HOURS_4',
  ...overrides,
});
const errorLines = () => lines.filter((line) => line.level >= 50);

describe('variables that do not fit', () => {
  it('a Decimal that is "abc": HTTP 400, BAD_USER_INPUT naming the variable and the field inside it, no bank call', async () => {
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: QUOTE, variables: { input: quoteInput({ sourceAmount: 'abc' }) } });
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    const [error] = answer.body.errors;
    expect(error.message).toMatch(/^Variable "\$input" is invalid at "input\.sourceAmount": Expected type "Decimal"/);
    expect(error.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      variable: 'input',
      issues: [{ path: ['input', 'sourceAmount'], message: expect.stringMatching(/^Expected type "Decimal"/) }],
    });
    expect(error.locations).toEqual([{ line: 1, column: 16 }]);
    expect(kit.calls('/quote')).toHaveLength(0);
    expect(errorLines()).toEqual([]);
  });

  it('every problem is its own error: a bad enum value and a missing required field, each with its path', async () => {
    const input = quoteInput({ lockPeriod: 'FOREVER' });
    delete (input as Record<string, unknown>).quoteType;
    const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: QUOTE, variables: { input } });
    expect(answer.status).toBe(400);
    const paths = answer.body.errors.map((error: { extensions: { issues: { path: string[] }[] } }) => error.extensions.issues[0]!.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        ['input', 'lockPeriod'],
        ['input', 'quoteType'],
      ]),
    );
    expect(paths).toHaveLength(2);
    expect(answer.body.errors.every((error: { extensions: { code: string } }) => error.extensions.code === 'BAD_USER_INPUT')).toBe(true);
  });

  it('a required variable not given, or given as null', async () => {
    const missing = await postGraphql(`${kit.baseUrl}/graphql`, { query: QUOTE, variables: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].message).toBe('Variable "$input" of required type "QuoteCreateInput!" was not provided.');
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', variable: 'input', issues: [{ path: ['input'] }] });
    const nulled = await postGraphql(`${kit.baseUrl}/graphql`, { query: QUOTE, variables: { input: null } });
    expect(nulled.body.errors[0].message).toBe('Variable "$input" of required type "QuoteCreateInput!" must not be null.');
  });

  it('over graphql-ws too', async () => {
    const outcome = await runWs(kit.baseUrl!, 'query ($first: Int!) { accounts(first: $first) { nodes { id } } }');
    expect('result' in outcome ? outcome.result.errors?.[0]?.extensions : outcome).toMatchObject({
      code: 'BAD_USER_INPUT',
      variable: 'first',
    });
  });
});

describe('a negative @stream(initialCount:)', () => {
  const STREAM = (count: string) =>
    `query ${count.startsWith('$') ? '($count: Int = 1) ' : ''}{ accounts(first: 5) { nodes @stream(initialCount: ${count}) { id } } }`;
  const accept = { accept: 'multipart/mixed, application/json' };

  it('literal or variable: BAD_USER_INPUT before execution, no bank call, nothing logged at error', async () => {
    for (const [query, variables] of [
      [STREAM('-1'), undefined],
      [STREAM('$count'), { count: -3 }],
    ] as const) {
      const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query, variables }, accept);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0].message).toMatch(
        /^Argument "initialCount" of @stream on AccountConnection\.nodes must not be negative; got -[13]\.$/,
      );
      expect(answer.body.errors[0].extensions).toEqual({
        code: 'BAD_USER_INPUT',
        argument: 'initialCount',
        directive: 'stream',
        field: 'AccountConnection.nodes',
      });
    }
    expect(kit.calls('/account')).toHaveLength(0);
    expect(errorLines()).toEqual([]);
    // The operation's line is written on the turn after its answer.
    await afterAnswer();
    const logged = lines.filter((line) => line.msg === 'operation executed' && line.errors?.[0]?.code === 'BAD_USER_INPUT');
    expect(logged.length).toBeGreaterThanOrEqual(2);
  });

  it('zero and positive counts still stream', async () => {
    const response = await fetch(`${kit.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
      body: JSON.stringify({ query: STREAM('0') }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    expect(await response.text()).toMatch(/"items":\[\{"id":/);
  });
});
