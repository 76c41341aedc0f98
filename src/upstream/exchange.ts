import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/**
 * One HTTP exchange with the bank on undici's pool, its body read whole as text: the dispatcher's
 * own handler interface, with no stream in between.
 *
 * Why not undici's `request()` and `body.text()`: for each call they make an AsyncResource, a
 * Readable stream for the body with its consume machinery (a resume, readable and end events, and a
 * destroy and close, each through process.nextTick), and an abort listener removed only on the
 * stream's close. The bank's answers are small JSON documents read whole at once, so none of that
 * carries anything, and on a screen of many calls it cost well over the stack floor's plain
 * request-and-text, most of it the stream's (docs/architecture.md, "Measured costs"). Here the
 * chunks are kept in an array and decoded once at the end, as undici's text() decodes them (UTF-8,
 * a byte order mark dropped), and the exchange fails as request() fails: with undici's errors and
 * codes (timeouts, a failed connection) or the reason it was cut with.
 */

/** What may cut an exchange: an AbortSignal, or an operation's WireSignal (one listener on the operation's signal for all its reads). */
export interface ExchangeCut {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface Exchanged {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Sends `options` on `pool`, cut by `cut` if it aborts first; `onStatus` hears the final status as
 * it arrives, before the body (a write's audit record keeps what the bank answered even when its
 * body is then lost).
 */
export function exchange(
  pool: Dispatcher,
  options: Dispatcher.DispatchOptions,
  cut: ExchangeCut | undefined,
  onStatus?: (statusCode: number) => void,
): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    const handler = new TextAnswer(resolve, reject, cut, onStatus);
    try {
      pool.dispatch(options, handler);
    } catch (error) {
      handler.onResponseError(undefined, error as Error);
    }
  });
}

/** The handler of one exchange: settles its promise once, with the answer or the failure. */
class TextAnswer implements Dispatcher.DispatchHandler {
  readonly #resolve: (answer: Exchanged) => void;
  readonly #reject: (error: Error) => void;
  readonly #cut: ExchangeCut | undefined;
  readonly #onStatus: ((statusCode: number) => void) | undefined;
  #onCut: (() => void) | undefined;
  /** Set when the cut aborted: before the request starts (it waits in the pool's queue), it is never sent. */
  #cutWith: Error | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #statusCode = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];
  #settled = false;

  constructor(
    resolve: (answer: Exchanged) => void,
    reject: (error: Error) => void,
    cut: ExchangeCut | undefined,
    onStatus: ((statusCode: number) => void) | undefined,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#cut = cut;
    this.#onStatus = onStatus;
    // Listened to from the dispatch, not from the start: a request waits in the pool's queue while
    // every connection is busy, and one cut meanwhile must never reach the wire (as request() does).
    if (cut?.aborted) this.#cutWith = reasonOf(cut);
    else if (cut) {
      this.#onCut = () => {
        this.#cutWith = reasonOf(cut);
        this.#controller?.abort(this.#cutWith);
      };
      cut.addEventListener('abort', this.#onCut);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#cutWith === undefined && this.#cut?.aborted) this.#cutWith = reasonOf(this.#cut);
    if (this.#cutWith !== undefined) return controller.abort(this.#cutWith);
    this.#controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx answers are interim: the final one follows on the same exchange.
    if (statusCode < 200) return;
    this.#statusCode = statusCode;
    this.#headers = headers;
    this.#onStatus?.(statusCode);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (!this.#settle()) return;
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, text: decoded(this.#chunks) });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#settle()) this.#reject(error);
  }

  /** True the first time: the exchange is over, its cut no longer listened to. */
  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#onCut) this.#cut!.removeEventListener('abort', this.#onCut);
    return true;
  }
}

const reasonOf = (cut: ExchangeCut): Error => (cut.reason as Error | undefined) ?? new Error('The exchange was cut.');

/** The body's bytes as UTF-8 text, a leading byte order mark dropped (as undici's text() reads them). */
function decoded(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}
