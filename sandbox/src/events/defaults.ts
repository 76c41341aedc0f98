import type { SandboxStore } from '../store.ts';

/** The record an event sent through the control API is about, and when. */
export interface EventSubject {
  store: SandboxStore;
  id: string;
  at: number;
}

/**
 * The default of one event sent through POST /sandbox/events, given by the domain that owns the
 * event (Domain.eventDefaults): built from the record the id names where the sandbox holds it (a
 * card, a conversion...), plausible demo values or just the id field otherwise. The caller's data
 * is merged over it.
 */
export interface EventDefault {
  /** The prefix of a made-up resource id (`cnv_…`), or `user` for events about the user (its id). */
  idPrefix: string;
  data(subject: EventSubject): object;
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
