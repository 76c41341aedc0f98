import type { ExecutionArgs, ExecutionResult } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import { useOperationsInFlight } from './operations-in-flight.ts';

type Hooks = { onExecuteDone?: (payload: { result: ExecutionResult | AsyncIterable<ExecutionResult> }) => unknown } | undefined;

/**
 * Runs the plugin's onExecute as envelop would: the refusal it sets, if any, its hooks for the end,
 * and the execute function it leaves (`execute` wrapped), with `signal` as the execution's.
 */
function start(
  plugin: ReturnType<typeof useOperationsInFlight>,
  long = false,
  execute: () => unknown = () => ({ data: {} }),
  signal?: AbortSignal,
) {
  const stopped = vi.fn();
  let executeFn = execute as (args: ExecutionArgs) => unknown;
  const args = { long, signal } as unknown as ExecutionArgs;
  const hooks = (plugin.onExecute as (payload: unknown) => Hooks)({
    args,
    executeFn,
    setExecuteFn: (wrapped: typeof executeFn) => (executeFn = wrapped),
    setResultAndStopExecution: stopped,
  });
  return { stopped, hooks, execute: () => executeFn(args) };
}

function setUp(max: number) {
  let read = () => -1;
  const observer = { count: (current: () => number) => (read = current), refused: vi.fn() };
  const plugin = useOperationsInFlight({ max, isLong: (args) => (args as unknown as { long: boolean }).long, observer });
  return { plugin, observer, inFlight: () => read() };
}

describe('useOperationsInFlight', () => {
  it('refuses the operation past the limit with SERVER_BUSY (503, Retry-After), and takes the place back as one ends', () => {
    const { plugin, observer, inFlight } = setUp(2);
    const first = start(plugin);
    start(plugin);
    expect(inFlight()).toBe(2);
    const third = start(plugin);
    expect(third.stopped).toHaveBeenCalledOnce();
    const error = third.stopped.mock.calls[0]![0].errors[0];
    expect(error.extensions).toMatchObject({
      code: 'SERVER_BUSY',
      retryAfterSeconds: 1,
      http: { status: 503, headers: { 'Retry-After': '1' } },
    });
    expect(observer.refused).toHaveBeenCalledOnce();
    first.hooks!.onExecuteDone!({ result: { data: {} } });
    expect(inFlight()).toBe(1);
    expect(start(plugin).stopped).not.toHaveBeenCalled();
  });

  it('holds an answer in parts until its last part, and gives its place back once however it ends', () => {
    const { plugin, inFlight } = setUp(1);
    const streamed = start(plugin);
    const parts = { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) };
    const end = (streamed.hooks!.onExecuteDone!({ result: parts as AsyncIterable<ExecutionResult> }) as { onEnd: () => void }).onEnd;
    expect(inFlight()).toBe(1);
    expect(start(plugin).stopped).toHaveBeenCalledOnce();
    end();
    end();
    expect(inFlight()).toBe(0);
  });

  it('gives the place back when the execution fails or its client leaves, which no onExecuteDone tells', async () => {
    const { plugin, inFlight } = setUp(2);
    const failing = start(plugin, false, () => Promise.reject(new Error('client left')));
    await expect(failing.execute()).rejects.toThrow('client left');
    expect(inFlight()).toBe(0);
    const left = new AbortController();
    const running = start(plugin, false, undefined, left.signal);
    expect(inFlight()).toBe(1);
    left.abort();
    expect(inFlight()).toBe(0);
    running.hooks!.onExecuteDone!({ result: { data: {} } });
    expect(inFlight()).toBe(0);
  });

  it('leaves live queries out: they run until their client leaves, under limits of their own', () => {
    const { plugin, inFlight } = setUp(1);
    expect(start(plugin, true).hooks).toBeUndefined();
    expect(inFlight()).toBe(0);
    expect(start(plugin).stopped).not.toHaveBeenCalled();
  });
});
