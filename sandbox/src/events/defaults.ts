import { badRequest, found } from '../http.ts';
import type { SandboxStore } from '../store.ts';

/** The record an event sent through the control API is about, and when. */
export interface EventSubject {
  store: SandboxStore;
  id: string;
  at: number;
}

/**
 * The default of one event sent through POST /sandbox/events, given by the domain that owns the
 * event (Domain.eventDefaults). An event about a record the sandbox keeps (a card, a conversion...)
 * names one, and its data is built from it: an event about a record no call can find would send
 * a receiver looking for nothing. Any other event takes any id, or a made-up one. The caller's
 * data is merged over the default.
 */
export type EventDefault = { data(subject: EventSubject): object } & (
  | {
      /** The prefix of a made-up resource id (`dep_…`), or `user` for events about the user (its id). */
      idPrefix: string;
    }
  | { record: EventRecord }
);

/** The records the resource id of an event must name. */
interface EventRecord {
  /** As messages name it: `card`. */
  noun: string;
  has(store: SandboxStore, id: string): boolean;
  /** The event reports the record's removal: the id must name one the sandbox no longer holds. */
  removed?: true;
}

/** The default of an event about a record of `collection`, with its data built from that record. */
export function recordDefault<R>(
  noun: string,
  collection: (store: SandboxStore) => ReadonlyMap<string, R>,
  build: (record: R, subject: EventSubject) => object,
): EventDefault {
  return {
    record: { noun, has: (store, id) => collection(store).has(id) },
    data: (subject) => build(found(collection(subject.store).get(subject.id), noun, subject.id), subject),
  };
}

/**
 * The resource id an event sent through the control API is about: the one given, checked
 * against what the sandbox holds, or, for an event about no record, a made-up one.
 */
export function resourceIdOf(store: SandboxStore, event: EventDefault, name: string, given: string | undefined, userId: string): string {
  if ('record' in event) return recordId(store, event.record, name, given);
  if (event.idPrefix !== 'user') return given ?? store.newId(event.idPrefix);
  if (given !== undefined && given !== userId) throw badRequest(`resource_id ${given} names no user: account events are about ${userId}`);
  return userId;
}

// Made up, the id would name no record: the caller names one.
function recordId(store: SandboxStore, record: EventRecord, name: string, given: string | undefined): string {
  if (given === undefined) throw badRequest(`resource_id is required for ${name}: the id of the ${record.noun} it is about`);
  const held = record.has(store, given);
  if (record.removed && held) throw badRequest(`resource_id ${given} names a ${record.noun} the sandbox still holds`);
  if (!record.removed && !held) throw badRequest(`resource_id ${given} names no ${record.noun}`);
  return given;
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
