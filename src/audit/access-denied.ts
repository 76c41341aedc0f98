import type { AccessDeniedRecord, AuditCaller } from './record.ts';

/**
 * Aggregates refusals before execution into access-denied records, so a flood of them cannot flood
 * the trail or memory: per caller (or, with none known, address), reason and transport, the first
 * of a minute is written at once; the others of that minute are counted and written as one record
 * when it ends (or at close). At most `maxKeys` callers and addresses are kept apart per minute;
 * the others of a reason and transport are counted together in one overflow record.
 */

/** One refusal, as the gateway saw it. */
export interface DeniedAttempt {
  reason: string;
  transport: string;
  caller: AuditCaller | null;
  address: string | null;
  requestId: string | null;
}

export interface DenialOptions {
  /** How long a first record stands for its key's refusals (default a minute). */
  windowMs?: number;
  /** Callers and addresses kept apart at once (default 10,000). */
  maxKeys?: number;
  /** Tests: the clock and the timer. */
  now?: () => number;
  schedule?: (run: () => void, ms: number) => () => void;
}

export interface DenialAggregator {
  deny(attempt: DeniedAttempt): void;
  /** Writes the counts held and stops; later refusals are not counted. */
  close(): void;
}

/** A key's minute: when it ends, and the refusals after the first, held until then. */
interface Window {
  endsAt: number;
  subject: Pick<DeniedAttempt, 'reason' | 'transport' | 'caller' | 'address'>;
  overflow: boolean;
  held: number;
  firstHeldAt: number;
  lastHeldAt: number;
}

const unrefTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export function createDenialAggregator(write: (record: AccessDeniedRecord) => void, options: DenialOptions = {}): DenialAggregator {
  const { windowMs = 60_000, maxKeys = 10_000, now = Date.now, schedule = unrefTimer } = options;
  const windows = new Map<string, Window>();
  let keys = 0;
  let cancel: (() => void) | undefined;
  let closed = false;

  const record = (window: Window, fields: Pick<AccessDeniedRecord, 'count' | 'firstAt' | 'lastAt' | 'requestId'>): AccessDeniedRecord => ({
    audit: 'access_denied',
    time: new Date(now()).toISOString(),
    ...window.subject,
    ...fields,
    overflow: window.overflow,
  });
  const writeHeld = (window: Window) => {
    if (window.held === 0) return;
    write(record(window, { count: window.held, firstAt: iso(window.firstHeldAt), lastAt: iso(window.lastHeldAt), requestId: null }));
  };
  const forget = (key: string, window: Window) => {
    windows.delete(key);
    if (!window.overflow) keys -= 1;
  };
  const sweep = () => {
    cancel = undefined;
    const at = now();
    for (const [key, window] of windows) {
      if (window.endsAt > at) continue;
      writeHeld(window);
      forget(key, window);
    }
    plan();
  };
  /** One timer, for the window that ends first; none while nothing is kept. */
  const plan = () => {
    cancel?.();
    cancel = undefined;
    if (closed || windows.size === 0) return;
    let first = Infinity;
    for (const window of windows.values()) first = Math.min(first, window.endsAt);
    cancel = schedule(sweep, Math.max(0, first - now()));
  };
  const open = (key: string, attempt: DeniedAttempt, overflow: boolean, at: number) => {
    const subject = overflow
      ? { reason: attempt.reason, transport: attempt.transport, caller: null, address: null }
      : { reason: attempt.reason, transport: attempt.transport, caller: attempt.caller, address: attempt.address };
    const window: Window = { endsAt: at + windowMs, subject, overflow, held: 0, firstHeldAt: 0, lastHeldAt: 0 };
    const first = windows.size === 0;
    windows.set(key, window);
    if (!overflow) keys += 1;
    write(record(window, { count: 1, firstAt: iso(at), lastAt: iso(at), requestId: attempt.requestId }));
    if (first) plan();
  };

  return {
    deny: (attempt) => {
      if (closed) return;
      const at = now();
      let key = keyOf(attempt);
      let window = windows.get(key);
      if (window && window.endsAt <= at) {
        writeHeld(window);
        forget(key, window);
        window = undefined;
      }
      if (!window && keys >= maxKeys) {
        key = `overflow\n${attempt.reason}\n${attempt.transport}`;
        window = windows.get(key);
      }
      if (!window) return open(key, attempt, key.startsWith('overflow\n'), at);
      if (window.held === 0) window.firstHeldAt = at;
      window.held += 1;
      window.lastHeldAt = at;
    },
    close: () => {
      if (closed) return;
      closed = true;
      cancel?.();
      cancel = undefined;
      for (const window of windows.values()) writeHeld(window);
      windows.clear();
      keys = 0;
    },
  };
}

/** A caller by who it is, whatever address it came from; one with none known by its address. */
function keyOf({ reason, transport, caller, address }: DeniedAttempt): string {
  const who = caller && caller.kind !== 'anonymous' ? `${caller.kind}:${caller.name}` : `address:${address ?? 'unknown'}`;
  return `${reason}\n${transport}\n${who}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
