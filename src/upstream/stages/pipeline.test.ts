import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { prepareCall } from './call.ts';
import { composeStages, type Stage } from './pipeline.ts';

const call = () => prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 3);

describe('composeStages', () => {
  it('runs the stages outermost first around the last step, each seeing what the inner ones return', async () => {
    const seen: string[] = [];
    const named =
      (name: string): Stage =>
      async (c, next) => {
        seen.push(`${name} in`);
        const result = await next(c);
        seen.push(`${name} out`);
        return result;
      };
    const run = composeStages([named('a'), named('b')], async () => {
      seen.push('last');
      return 42;
    });
    expect(await run(call())).toBe(42);
    expect(seen).toEqual(['a in', 'b in', 'last', 'b out', 'a out']);
  });

  it('lets a stage call the rest again (a retry) or not at all (a refusal)', async () => {
    let sends = 0;
    const twice: Stage = async (c, next) => {
      await next(c).catch(() => undefined);
      return next(c);
    };
    const flaky = composeStages([twice], async () => {
      sends += 1;
      if (sends === 1) throw new Error('first');
      return 'second';
    });
    expect(await flaky(call())).toBe('second');
    const refuse: Stage = async () => {
      throw new Error('refused');
    };
    await expect(composeStages([refuse], async () => sends++)(call())).rejects.toThrow('refused');
    expect(sends).toBe(2);
  });
});
