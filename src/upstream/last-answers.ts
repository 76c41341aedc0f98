import type { UpstreamFamily } from './families.ts';
import type { UpstreamObserver } from './observer.ts';

/**
 * When each family last gave a usable answer (any status under 500), learnt from every call:
 * readiness takes real traffic as evidence that the bank answers.
 */
export class LastAnswers {
  readonly #answeredAt = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The observer to report to instead of `observer`: it passes every report on, and learns from each call. */
  watch(observer: UpstreamObserver): UpstreamObserver {
    return {
      call: (record) => {
        if (typeof record.status === 'number' && record.status < 500) this.#answeredAt.set(record.family, this.#now());
        observer.call(record);
      },
      breaker: (family, state) => observer.breaker(family, state),
      hostLimit: (host, read) => observer.hostLimit?.(host, read),
      queueWait: (host, ms) => observer.queueWait?.(host, ms),
      heldByClientShare: (host) => observer.heldByClientShare?.(host),
      operationAbandoned: () => observer.operationAbandoned?.(),
    };
  }

  /** When the family last gave a usable answer, epoch ms; undefined if never. */
  at(family: UpstreamFamily): number | undefined {
    return this.#answeredAt.get(family);
  }
}
