import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { startInSizeOrder } from './batch-order.ts';

describe('startInSizeOrder', () => {
  it('starts the batches asked for in one pass smallest first, ties in the order asked', async () => {
    const started: string[] = [];
    const batch = (name: string, size: number) =>
      startInSizeOrder(size, async () => {
        started.push(name);
        return name;
      });
    const results = await Promise.all([
      batch('details', 50),
      batch('cardholders', 2),
      batch('wallet-a', 1),
      batch('wallet-b', 1),
      batch('accounts', 5),
    ]);
    expect(started).toEqual(['wallet-a', 'wallet-b', 'cardholders', 'accounts', 'details']);
    // Each caller gets its own batch's result.
    expect(results).toEqual(['details', 'cardholders', 'wallet-a', 'wallet-b', 'accounts']);
  });

  it('starts each batch in the async context it was asked for in (its trace span)', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['big', 'small'].map((name, index) =>
        storage.run(name, () => startInSizeOrder(index === 0 ? 10 : 1, async () => storage.getStore())),
      ),
    );
    expect(seen).toEqual(['big', 'small']);
  });

  it('passes a failure on to its own caller only, thrown or rejected', async () => {
    const thrown = startInSizeOrder(1, () => {
      throw new Error('thrown');
    });
    const rejected = startInSizeOrder(2, () => Promise.reject(new Error('rejected')));
    const fine = startInSizeOrder(3, async () => 'fine');
    await expect(thrown).rejects.toThrow('thrown');
    await expect(rejected).rejects.toThrow('rejected');
    await expect(fine).resolves.toBe('fine');
  });

  it('starts a later pass after the earlier one, whatever its sizes', async () => {
    const started: number[] = [];
    const first = startInSizeOrder(50, async () => started.push(50));
    await first;
    await startInSizeOrder(1, async () => started.push(1));
    expect(started).toEqual([50, 1]);
  });
});
