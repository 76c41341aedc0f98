import { GraphQLError, type ExecutionResult } from 'graphql';

export interface PushOptions {
  /** When the caller's credential expires (a JWT's `exp`), epoch ms: the live query ends then with TOKEN_EXPIRED. */
  expiresAt: number | undefined;
  pushed(): void;
  /** Once, when the stream ends for any reason: the client left, it expired, or the store ended it. */
  released(): void;
}

const EXPIRED = Symbol('expired');

/** The coded error a live query ends with when its credential expires (docs/errors.md). */
function expiredResult(): ExecutionResult {
  return {
    errors: [
      new GraphQLError('The credential this live query was made with has expired: start it again with a fresh one', {
        extensions: { code: 'TOKEN_EXPIRED' },
      }),
    ],
  };
}

/**
 * The store's stream of results as the client gets it: a result equal to the last one pushed is
 * not pushed again (a re-run after an event that changed nothing this query read); the stream ends
 * with a coded error at the credential's expiry. Written by hand rather than as an async generator:
 * a generator waiting for the next result cannot be returned, and a client that leaves must free
 * the store's entry, its throttle timer and this expiry timer at once.
 */
export function pushesOf(
  source: AsyncIterator<ExecutionResult> & AsyncIterable<ExecutionResult>,
  options: PushOptions,
): AsyncIterableIterator<ExecutionResult> {
  let last: string | undefined;
  let finished = false;
  let expired = false;
  /** Wakes the `next` waiting for a result, if one is, when the credential expires. */
  let wake: (() => void) | undefined;
  const timer =
    options.expiresAt === undefined
      ? undefined
      : setTimeout(
          () => {
            expired = true;
            wake?.();
          },
          Math.max(0, options.expiresAt - Date.now()),
        );
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.released();
    void source.return?.();
  };
  // The next result, or the expiry if it comes first. Not Promise.race with one promise of the
  // expiry: each race left a reaction on that promise, kept until it settled, so memory grew with
  // every result for as long as the live query stayed open (src/live/pushes.test.ts).
  const nextOrExpiry = (): Promise<IteratorResult<ExecutionResult> | typeof EXPIRED> => {
    if (expired) return Promise.resolve(EXPIRED);
    if (timer === undefined) return source.next();
    return new Promise<IteratorResult<ExecutionResult> | typeof EXPIRED>((resolve, reject) => {
      wake = () => resolve(EXPIRED);
      source.next().then(resolve, reject);
    }).finally(() => {
      wake = undefined;
    });
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => iterator,
    next: async () => {
      while (!finished) {
        const step = await nextOrExpiry().catch((error: unknown) => {
          // A stream that fails is over: what it held is freed as when the client leaves.
          finish();
          throw error;
        });
        if (step === EXPIRED) {
          if (finished) break;
          finish();
          return { done: false, value: expiredResult() };
        }
        if (step.done) break;
        const text = comparedText(step.value);
        if (text === last) continue;
        last = text;
        options.pushed();
        return { done: false, value: step.value };
      }
      finish();
      return { done: true, value: undefined };
    },
    return: async () => {
      finish();
      return { done: true, value: undefined };
    },
    throw: async (error?: unknown) => {
      finish();
      throw error;
    },
  };
  return iterator;
}

/** The store marks each result `isLive`; not part of what the client sees change. */
const withoutLiveMark = (key: string, value: unknown) => (key === 'isLive' ? undefined : value);

/** The text of shared results' data (groups.ts: one data object for every member of a group), made once. */
const dataTexts = new WeakMap<object, string>();

/** What two results of one live query are compared by: their data alone when that is all they carry. */
function comparedText(result: ExecutionResult): string {
  const { data } = result;
  if (!data || result.errors || result.extensions) return JSON.stringify(result, withoutLiveMark);
  let text = dataTexts.get(data);
  if (text === undefined) dataTexts.set(data, (text = JSON.stringify(data)));
  return text;
}
