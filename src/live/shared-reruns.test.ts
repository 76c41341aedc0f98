import { parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { sharedReruns } from './shared-reruns.ts';

/** A live query's re-run as the store makes it: its own context, which collects what the execution read. */
function storeArgs(document = DOCUMENT, variableValues: Record<string, unknown> = {}) {
  const identifiers: string[] = [];
  const contextValue = {
    collectResourceIdentifier: ({ typename, id }: { typename: string; id: string }) => void identifiers.push(`${typename}:${id}`),
    addResourceIdentifier: (values: string | Iterable<string> | null | undefined) => void (typeof values === 'string' ? identifiers.push(values) : values && identifiers.push(...values)),
  };
  return { args: { schema: undefined as never, document, variableValues, contextValue } as ExecutionArgs, identifiers };
}

const DOCUMENT = parse('query Dashboard @live { balances { currency } }');

function counter() {
  let executions = 0;
  const execute = async (args: ExecutionArgs): Promise<ExecutionResult> => {
    executions += 1;
    (args.contextValue as { collectResourceIdentifier(p: { typename: string; id: string }): void }).collectResourceIdentifier({ typename: 'Balance', id: 'USD' });
    (args.contextValue as { addResourceIdentifier(v: string): void }).addResourceIdentifier('Query.balances');
    return { data: { balances: [{ currency: 'USD' }] } };
  };
  return { execute, executions: () => executions };
}

const caller = (scope: string, signal?: AbortSignal) => ({ scope, signal });
const reruns = () => sharedReruns({ scopeOf: (context) => (context as { scope: string }).scope, signalOf: (context) => (context as { signal?: AbortSignal }).signal });

describe('re-runs shared by identical live queries', () => {
  it('executes once for identical live queries of one scope in one invalidation, each told what it read', async () => {
    const shared = reruns();
    const { execute, executions } = counter();
    shared.invalidated();
    const runs = Array.from({ length: 5 }, () => storeArgs());
    const results = await Promise.all(runs.map(({ args }) => shared.rerun(args, caller('ops', new AbortController().signal), execute)));
    expect(executions()).toBe(1);
    expect(results.map((result) => result.data)).toEqual(Array.from({ length: 5 }, () => ({ balances: [{ currency: 'USD' }] })));
    // Each its own object (the store marks it isLive), the data shared.
    expect(new Set(results).size).toBe(5);
    expect(runs.map(({ identifiers }) => identifiers)).toEqual(Array.from({ length: 5 }, () => ['Balance:USD', 'Query.balances']));
  });

  it('executes again after the next invalidation, and apart for another scope, document or variables', async () => {
    const shared = reruns();
    const { execute, executions } = counter();
    shared.invalidated();
    await shared.rerun(storeArgs().args, caller('ops'), execute);
    await shared.rerun(storeArgs().args, caller('cardholder chd_1'), execute);
    await shared.rerun(storeArgs(parse('query Other @live { balances { currency } }')).args, caller('ops'), execute);
    await shared.rerun(storeArgs(DOCUMENT, { first: 2 }).args, caller('ops'), execute);
    expect(executions()).toBe(4);
    await shared.rerun(storeArgs().args, caller('ops'), execute);
    expect(executions()).toBe(4);
    shared.invalidated();
    await shared.rerun(storeArgs().args, caller('ops'), execute);
    expect(executions()).toBe(5);
  });

  it('reads for itself when the live query whose execution it waited for left while it ran', async () => {
    const shared = reruns();
    const { execute, executions } = counter();
    shared.invalidated();
    const leaving = new AbortController();
    const first = shared.rerun(storeArgs().args, caller('ops', leaving.signal), execute);
    leaving.abort();
    const staying = storeArgs();
    const second = await shared.rerun(staying.args, caller('ops', new AbortController().signal), execute);
    await first;
    expect(executions()).toBe(2);
    expect(second.data).toEqual({ balances: [{ currency: 'USD' }] });
    expect(staying.identifiers).toEqual(['Balance:USD', 'Query.balances']);
  });
});
