import { asError } from '../../platform/as-error.ts';
import type { UpstreamCall } from './call.ts';

/**
 * One concern of an upstream call (deadline, breaker, retry, auth renewal, 429 wait, concurrency
 * limit), in the manner of Hive Gateway's one-plugin-per-concern: it may act before the rest of
 * the pipeline, call it (`next`) once, several times or not at all, and act on its outcome. A stage
 * that reads the outcome names what it needs of it (`Stage<Answer>`); the others take any.
 */
export type Stage<Outcome = unknown> = <T extends Outcome>(call: UpstreamCall, next: (call: UpstreamCall) => Promise<T>) => Promise<T>;

/**
 * `stages` in order, outermost first, around `last`: composed once, so a call makes no function
 * per stage on its way in (each stage hands the call to the next itself).
 */
export function composeStages<T>(
  stages: readonly Stage<T>[],
  last: (call: UpstreamCall) => Promise<T>,
): (call: UpstreamCall) => Promise<T> {
  return stages.reduceRight<(call: UpstreamCall) => Promise<T>>((next, stage) => (call) => stage(call, next), last);
}

/**
 * `next(call)`, with a throw turned into a rejection. The stages that read the outcome do so with
 * `then` on this, not as async functions: an async stage's suspended frame and promises cost far
 * more per stage per call than a handler's closure (docs/architecture.md, "Measured costs").
 */
export function passOn<T>(next: (call: UpstreamCall) => Promise<T>, call: UpstreamCall): Promise<T> {
  try {
    return next(call);
  } catch (error) {
    return Promise.reject(asError(error));
  }
}
