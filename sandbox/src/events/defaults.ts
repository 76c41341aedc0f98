import type { Domain, EventDefault } from '../domain.ts';
import type { SandboxStore } from '../store.ts';
import type { EventName } from './catalogue.ts';

/**
 * Default data of events sent through POST /sandbox/events. Each domain gives its own events'
 * defaults (Domain.eventDefaults): where the resource id names a record the sandbox holds (a card,
 * a conversion...), the data is built from it as the real emission would build it; otherwise the
 * event gets plausible demo values, or just the id field where no value would be plausible. The
 * caller's data is merged over it.
 */
export function eventDefault(domains: readonly Domain[], name: EventName): EventDefault {
  const found = domains.map((domain) => domain.eventDefaults?.[name]).find((candidate) => candidate !== undefined);
  // Every catalogue event has one (sandbox/test/events.test.ts); a bare id is the fallback of a domain set without it.
  return found ?? { idPrefix: 'evt', data: ({ id }) => ({ id }) };
}

/** A new resource id of the event's kind when the caller names none; events about the user carry its id. */
export function defaultResourceId(store: SandboxStore, event: EventDefault, userId: string): string {
  return event.idPrefix === 'user' ? userId : store.newId(event.idPrefix);
}

/**
 * Plain objects merge key by key; anything else given replaces the default. Keys are defined,
 * not assigned, so a `__proto__` key from JSON stays an ordinary key.
 */
export function mergeData(base: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const merged = Object.fromEntries(Object.entries(base));
  for (const [key, value] of Object.entries(given)) {
    const current = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const next = isPlainObject(current) && isPlainObject(value) ? mergeData(current, value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
