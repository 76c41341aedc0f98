import { isFellBehind, type Delivery } from './fanout.ts';
import type { PublishedEvent } from './log.ts';

/**
 * A subscription's deliveries with only the events `keep` says yes to, when saying so may take a
 * read (is this card the caller's?). Order is kept: each event waits for its own answer before the
 * next is looked at. A fell-behind notice always passes: it ends the subscription.
 */
export function keepOnly(
  source: AsyncIterableIterator<Delivery>,
  keep: (event: PublishedEvent) => boolean | Promise<boolean>,
): AsyncIterableIterator<Delivery> {
  let ended = false;
  // Not an async generator: its return() would wait for the pending next(), i.e. for the next event.
  const end = async (): Promise<IteratorReturnResult<undefined>> => {
    ended = true;
    await source.return?.();
    return { done: true, value: undefined };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      while (!ended) {
        const next = await source.next();
        if (next.done || isFellBehind(next.value) || (await keep(next.value))) return next;
      }
      return { done: true, value: undefined };
    },
    return: end,
    throw: async (error: unknown) => {
      await end();
      throw error;
    },
  };
}
