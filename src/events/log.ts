import type { EventLogConfig } from '../settings/index.ts';
import { cursorKey, type Cursor } from './cursor.ts';
import type { BankEvent } from './models.ts';

/**
 * This instance's log of the events it delivered, in the order it delivered them: what a subscriber
 * that reconnects to this instance resumes from, and (without Redis) the only log there is. Bounded
 * by count and age (EVENT_LOG_MAX_EVENTS, EVENT_LOG_MAX_AGE_MS).
 */

/** The bank's event and when the gateway accepted the delivery (ISO time). */
/**
 * An event as the bus took it: when, and which occurrence (models.ts occurrenceKey), which names it
 * uniquely, the same for a redelivery and in catch-up (BankEvent.id derives from it).
 */
export type AcceptedEvent = BankEvent & { receivedAt: string; occurrence: string };

/** An event as subscribers get it: with its cursor, an opaque position in the event log (cursor.ts) to give back as `after`. */
export type PublishedEvent = AcceptedEvent & { cursor: string };

export interface LogEntry {
  /** This instance's delivery order. */
  seq: number;
  /** The event's id in the shared log (Redis Stream, or the memory log's own). */
  streamId: string;
  /** What makes this occurrence unique (models.ts occurrenceKey): the same one is delivered once. */
  occurrence: string;
  /** Local time of the append, for the age bound. */
  at: number;
  event: PublishedEvent;
}

/** Where a cursor falls in the log: the entries after it, or not known here. */
export type Position = { entries: LogEntry[] } | { unknown: true };

export class EventLog {
  readonly #limits: EventLogConfig;
  readonly #now: () => number;
  /** Held from #head on; the slots before it are emptied as their entries are dropped. */
  #entries: (LogEntry | undefined)[] = [];
  #head = 0;
  readonly #byCursor = new Map<string, LogEntry>();
  readonly #byOccurrence = new Map<string, LogEntry>();
  /** Cursor key of the newest entry dropped so far: resuming there misses nothing. */
  #lastDropped: string | null = null;
  #nextSeq = 1;

  constructor(limits: EventLogConfig, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.length - this.#head;
  }

  append(event: PublishedEvent, streamId: string, occurrence: string): LogEntry {
    const entry: LogEntry = { seq: this.#nextSeq++, streamId, occurrence, at: this.#now(), event };
    this.#entries.push(entry);
    this.#byCursor.set(keyOf(entry), entry);
    this.#byOccurrence.set(occurrence, entry);
    this.#trim();
    return entry;
  }

  /** The entry of an occurrence this instance delivered, if still held. */
  byOccurrence(occurrence: string): LogEntry | undefined {
    return this.#byOccurrence.get(occurrence);
  }

  /** The entries after a cursor, oldest first; unknown when the cursor is not (or no longer) in this log. */
  after(cursor: Cursor): Position {
    this.#trim();
    const key = cursorKey(cursor);
    if (this.#lastDropped === key) return { entries: this.#held(0) };
    const entry = this.#byCursor.get(key);
    if (!entry) return { unknown: true };
    const first = this.#entries[this.#head]!;
    return { entries: this.#held(entry.seq - first.seq + 1) };
  }

  /** The oldest entry still held. */
  oldest(): LogEntry | undefined {
    this.#trim();
    return this.#entries[this.#head];
  }

  /** The newest entry's sequence number (0 before the first). */
  lastSeq(): number {
    return this.#nextSeq - 1;
  }

  #trim(): void {
    const oldestAllowed = this.#now() - this.#limits.maxAgeMs;
    while (this.size > 0) {
      const entry = this.#entries[this.#head]!;
      if (this.size <= this.#limits.maxEvents && entry.at >= oldestAllowed) break;
      this.#drop(entry);
      // Let go of it now: the array is compacted only now and then (below).
      this.#entries[this.#head] = undefined;
      this.#head += 1;
    }
    // Compact now and then, not on every drop: slicing is linear in what stays.
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The entries held, from the `skip`th on. */
  #held(skip: number): LogEntry[] {
    return this.#entries.slice(this.#head + skip) as LogEntry[];
  }

  #drop(entry: LogEntry): void {
    const key = keyOf(entry);
    this.#byCursor.delete(key);
    if (this.#byOccurrence.get(entry.occurrence) === entry) this.#byOccurrence.delete(entry.occurrence);
    this.#lastDropped = key;
  }
}

function keyOf(entry: LogEntry): string {
  return cursorKey({ kind: 's', id: entry.streamId });
}
