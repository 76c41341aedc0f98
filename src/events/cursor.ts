/**
 * Event cursors: where a subscriber is in the log of published events, handed out with every event
 * (`BankEvent.cursor`) and given back as `after` to resume. Opaque to clients (base64url text); inside,
 * a position in the event log (`s`), `<ms>-<seq>` as Redis Stream ids are written (the memory log
 * makes its own ids of the same form), ordered by (ms, seq). Every event has its place in the log
 * before anyone gets it, so there is no other kind.
 */

const VERSION = 'v1';

export type Cursor = { kind: 's'; id: string };

/** `<ms>-<seq>`: both parts decimal integers. */
const STREAM_ID = /^\d{1,16}-\d{1,16}$/;

/** The cursor of a log position, as clients see it. */
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
  return kind === 's' && STREAM_ID.test(id) ? { kind, id } : null;
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
