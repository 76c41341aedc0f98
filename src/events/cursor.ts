/**
 * Event cursors: where a subscriber is in the log of published events, handed out with every event
 * (`BankEvent.cursor`) and given back as `after` to resume. Opaque to clients (base64url text), and
 * of two kinds inside:
 * - `s`: a position in the event log, `<ms>-<seq>` as Redis Stream ids are written (the memory log
 *   makes its own ids of the same form), ordered by (ms, seq);
 * - `p`: provisional, given by one instance to an event it delivered while Redis was away, before the
 *   event had a place in the shared log. Once Redis is back the event is written to the log with this
 *   cursor as its alias, so either cursor resumes after it.
 */

const VERSION = 'v1';

export type Cursor = { kind: 's'; id: string } | { kind: 'p'; id: string };

/** `<ms>-<seq>`: both parts decimal integers. */
const STREAM_ID = /^\d{1,16}-\d{1,16}$/;
/** `<instance>:<n>`. */
const PROVISIONAL_ID = /^[A-Za-z0-9]{1,32}:\d{1,16}$/;

/** The cursor of a log position or a provisional id, as clients see it. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${VERSION}:${cursor.kind}:${cursor.id}`, 'utf8').toString('base64url');
}

/** A cursor text a client gave back; null when it is not one this gateway hands out. */
export function decodeCursor(text: string): Cursor | null {
  if (text.length > 128 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const [version, kind, ...rest] = decoded.split(':');
  const id = rest.join(':');
  if (version !== VERSION) return null;
  if (kind === 's' && STREAM_ID.test(id)) return { kind, id };
  if (kind === 'p' && PROVISIONAL_ID.test(id)) return { kind, id };
  return null;
}

/** The key a cursor is known by in a log: its kind and id. */
export function cursorKey(cursor: Cursor): string {
  return `${cursor.kind}:${cursor.id}`;
}

function parts(id: string): [number, number] {
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq)];
}

/** Orders two log ids (`<ms>-<seq>`): negative when `a` comes first. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs, aSeq] = parts(a);
  const [bMs, bSeq] = parts(b);
  return aMs !== bMs ? aMs - bMs : aSeq - bSeq;
}

/** Log ids for the memory log, of the Redis form: the time in ms, then a sequence within that ms. */
export function streamIdGenerator(now: () => number = Date.now): () => string {
  let lastMs = 0;
  let seq = 0;
  return () => {
    const ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      seq = 0;
    } else seq += 1;
    return `${lastMs}-${seq}`;
  };
}
