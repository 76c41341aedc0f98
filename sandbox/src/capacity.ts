import { statusFaultReply } from './faults.ts';
import type { ErrorStyle, Reply } from './http.ts';

/**
 * A bank's capacity, for trying a client's limits against (PUT /sandbox/capacity): at most
 * `concurrency` API calls are worked on at once. What happens to the next depends on `overflow`:
 * - `queue`: it waits its turn, so latency climbs with the load, as at a bank with a fixed pool of
 *   workers;
 * - `reject`: it is answered 429 at once (with `Retry-After` when `retryAfterSeconds` is set), as
 *   at a bank that sheds load.
 * Unset (the default, and after a reset): no limit. The documents give no limit ("Rate limits: not
 * shown"), so this is a test control, never on by itself.
 */
interface CapacitySetting {
  concurrency: number | null;
  overflow: 'queue' | 'reject';
  retryAfterSeconds: number | null;
}

const UNLIMITED: CapacitySetting = { concurrency: null, overflow: 'queue', retryAfterSeconds: null };

/** What one call got: a place to be worked on (release it when answered), or a refusal to send. */
type Admission = { admitted: true; release(): void } | { admitted: false; reply: Reply } | { admitted: false; aborted: true };

export interface Capacity {
  current(): CapacitySetting & { inFlight: number; queued: number; rejected: number };
  set(setting: CapacitySetting): void;
  reset(): void;
  enter(signal: AbortSignal, errors: ErrorStyle): Promise<Admission>;
}

export function createCapacity(): Capacity {
  let setting = UNLIMITED;
  let inFlight = 0;
  let rejected = 0;
  const waiting: (() => void)[] = [];
  const grantWaiting = () => {
    while (waiting.length > 0 && (setting.concurrency === null || inFlight < setting.concurrency)) {
      inFlight += 1;
      waiting.shift()!();
    }
  };
  const release = () => {
    inFlight -= 1;
    grantWaiting();
  };
  const admitted = (): Admission => ({ admitted: true, release: once(release) });
  return {
    current: () => ({ ...setting, inFlight, queued: waiting.length, rejected }),
    set(next) {
      setting = next;
      grantWaiting();
    },
    reset() {
      setting = UNLIMITED;
      rejected = 0;
      grantWaiting();
    },
    async enter(signal, errors) {
      if (setting.concurrency === null || inFlight < setting.concurrency) {
        inFlight += 1;
        return admitted();
      }
      if (setting.overflow === 'reject') {
        rejected += 1;
        return {
          admitted: false,
          reply: statusFaultReply({ status: 429, message: 'Too many requests', retryAfterSeconds: setting.retryAfterSeconds }, errors),
        };
      }
      return new Promise<Admission>((resolve) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(granted), 1);
          resolve({ admitted: false, aborted: true });
        };
        // Counted in flight by grantWaiting, which calls it.
        const granted = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(admitted());
        };
        waiting.push(granted);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (!done) action();
    done = true;
  };
}
