import { AsyncLocalStorage } from 'node:async_hooks';
import { asError } from '../platform/as-error.ts';

/**
 * Loader batches that fall due together start smallest first.
 *
 * DataLoader dispatches every batch whose keys were gathered in the same pass of execution in one
 * go, in the order each loader got its first key: on the cards screen the 50 card details go out
 * before the 2 cardholders, because a card's `details` field comes before its `cardholder`. The
 * bank answers in arrival order, so the cardholders, whose answers the wallet reads wait for, came
 * back last, and the gateway read them only after parsing the 50 details, all of it on the critical
 * path. Smallest first is the order that makes the batches finish soonest on average, and the small
 * batches of a round are typically the parents that further rounds depend on (an account, a
 * cardholder), while the large ones are per-item leaves. The cost to a large batch is the time to
 * send the small ones ahead of it, small against a round trip (docs/architecture.md, "Measured
 * costs").
 *
 * Every batch started while a microtask is pending waits for it; then they start in order of size
 * (ties keep their order), each in the async context it was called in (the trace span it belongs
 * to, a live query's re-run mark). No timer is involved: a batch starts in the same turn of the event loop as before.
 */

interface PendingStart {
  size: number;
  start: () => void;
}

let pending: PendingStart[] = [];

function startPending(): void {
  const due = pending;
  pending = [];
  due.sort((a, b) => a.size - b.size);
  for (const { start } of due) start();
}

export function startInSizeOrder<T>(size: number, start: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const begin = () => {
      try {
        start().then(resolve, reject);
      } catch (error) {
        reject(asError(error));
      }
    };
    // The first batch due runs in the microtask queued from its own async context, which the
    // microtask keeps; only the batches after it need theirs kept (a snapshot is most of this
    // function's cost, and most rounds have one batch).
    if (pending.length === 0) {
      queueMicrotask(startPending);
      pending.push({ size, start: begin });
    } else {
      const inContext = AsyncLocalStorage.snapshot();
      pending.push({ size, start: () => inContext(begin) });
    }
  });
}
