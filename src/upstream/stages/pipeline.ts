import type { UpstreamCall } from './call.ts';

/**
 * One concern of an upstream call (deadline, breaker, retry, auth renewal, 429 wait, concurrency
 * limit), in the manner of Hive Gateway's one-plugin-per-concern: it may act before the rest of
 * the pipeline, call it (`next`) once, several times or not at all, and act on its outcome. A stage
 * that reads the outcome names what it needs of it (`Stage<Answer>`); the others take any.
 */
export type Stage<Outcome = unknown> = <T extends Outcome>(call: UpstreamCall, next: () => Promise<T>) => Promise<T>;

/** `stages` in order, outermost first, around `last`. */
export function composeStages<T>(stages: readonly Stage<T>[], last: (call: UpstreamCall) => Promise<T>): (call: UpstreamCall) => Promise<T> {
  return (call) => {
    const step = (index: number): Promise<T> => {
      const stage = stages[index];
      return stage ? stage(call, () => step(index + 1)) : last(call);
    };
    return step(0);
  };
}
