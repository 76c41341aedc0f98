import { formatApiTime } from '../time.ts';
import { EVENT_VERSION, eventId, type EventName } from './catalogue.ts';

/**
 * The `data` of each event (Document 3, section 6), by name. Each domain adds its own events by
 * declaration merging (its events.ts), so the core names no domain's payload; domains/index.ts
 * checks at compile time that together they cover the catalogue.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the domains
export interface EventPayloads {}

type EventData<N extends EventName> = N extends keyof EventPayloads ? EventPayloads[N] : never;

/** Section 2.3: what every delivery carries. */
export interface WebhookEvent {
  id: string;
  name: EventName;
  account_id: string;
  data: object;
  created_at: string;
  version: string;
}

/** Told of every event emitted (the sandbox fans it out to subscribers); `at` is its instant. */
export type EventListener = (event: WebhookEvent, at: number) => void;

/**
 * Where the domains report their state changes. Emitting builds the envelope, keeps it (for
 * redelivery and GET /sandbox/events) and hands it to the listener, synchronously: delivery
 * itself is the listener's business and never holds up the caller.
 */
export interface EventBus {
  emit<N extends EventName>(name: N, data: EventData<N>, resourceId: string, at: number): WebhookEvent;
  /** Any catalogue event with data of the caller's making (POST /sandbox/events). */
  emitAny(name: EventName, data: Record<string, unknown>, resourceId: string, at: number): WebhookEvent;
  /** Runs `work` with emission off: what the demo seed sets up is history, not news. */
  quietly(work: () => void): void;
  /** Oldest first. */
  list(): WebhookEvent[];
  /** The latest event with this id; ids of different events may coincide, `name` tells them apart. */
  find(id: string, name?: EventName): WebhookEvent | undefined;
  clear(): void;
}

// Bounded for long benchmark runs; tests never get near it.
const MAX_EVENTS = 10_000;

export function createEventBus(accountId: string, listener: EventListener): EventBus {
  let events: WebhookEvent[] = [];
  let quiet = false;
  const emitAny = (name: EventName, data: object, resourceId: string, at: number): WebhookEvent => {
    // A snapshot: the records the data was built from go on changing.
    const snapshot = structuredClone(data);
    const event: WebhookEvent = {
      id: eventId(name, resourceId, snapshot as Record<string, unknown>),
      name,
      account_id: accountId,
      data: snapshot,
      created_at: formatApiTime(at),
      version: EVENT_VERSION,
    };
    if (quiet) return event;
    events.push(event);
    if (events.length > MAX_EVENTS) events = events.slice(-MAX_EVENTS);
    listener(event, at);
    return event;
  };
  return {
    emit: emitAny,
    emitAny,
    quietly(work) {
      const before = quiet;
      quiet = true;
      try {
        work();
      } finally {
        quiet = before;
      }
    },
    list: () => structuredClone(events),
    find: (id, name) => events.findLast((event) => event.id === id && (name === undefined || event.name === name)),
    clear() {
      events = [];
    },
  };
}
