import { describe, expect, it } from 'vitest';
import { CARDS_ON_SCREEN, extraCardMutation, OPERATIONS } from '../bench/operations.ts';
import { useKit, type Kit } from './kit.ts';

/**
 * Every benchmark operation costs exactly its minimum of upstream calls, none repeated. Counts come
 * from the sandbox's request log and are deterministic; timings are the benchmark's business.
 */
const kit = useKit();

async function run(target: Kit, query: string, variables?: Record<string, unknown>) {
  const response = await target.gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body;
}

async function prepareCards(target: Kit) {
  for (let i = 1; i < CARDS_ON_SCREEN; i++) {
    const { query, variables } = extraCardMutation(i);
    await run(target, query, variables);
  }
  await target.resetCounts();
}

describe('benchmark operations cost the fewest upstream calls', () => {
  it.each(OPERATIONS)('$name: $minimumCalls calls, none repeated', async (operation) => {
    if (operation.name.startsWith('cards')) await prepareCards(kit);
    await run(kit, operation.query, operation.variables);
    const calls = kit.sandbox.requests().map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${JSON.stringify(r.subject)}`);
    expect(calls.length).toBe(operation.minimumCalls);
    expect(new Set(calls).size).toBe(calls.length);
  });
});
