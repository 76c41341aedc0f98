import { LRUCache } from 'lru-cache';
import { entryBound } from '../platform/lru-bounds.ts';
import { ALL_RECORD_KINDS, type CachePolicy, type RecordKind, type TtlClass } from './cache-policy.ts';

/** How long each class of record is kept when no event or mutation says it changed (UPSTREAM_CACHE_*). */
export type CacheTtls = Record<TtlClass, number>;

export interface RecordCacheOptions {
  ttls: CacheTtls;
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  kinds: readonly RecordKind[];
}

export interface RecordCacheStats {
  hits: number;
  misses: number;
  /** Reads that joined one already on its way to the bank for the same key. */
  joined: number;
  invalidations: number;
  entries: number;
}

/**
 * Upstream answers per bank user and request, under the loaders: a read the cache holds makes no
 * call, and concurrent identical reads share one call. What makes it safe for banking data is
 * invalidation rather than expiry: every bank event and every write drops the kinds of record they
 * touch (a write's endpoint declares them; cache-policy.ts names the events') for every user, at
 * once, before the write's answer or the event's 202 leaves; the TTL only bounds what no event
 * announces.
 *
 * Written over lru-cache rather than with The Guild's response cache: a response cache keys whole
 * GraphQL results, so one card's event would drop every screen that shows any card, and two
 * screens that read the same records would each call the bank; records under the loaders are shared
 * by every operation of the user. A read that overlaps an invalidation is not stored: it may carry
 * the state before the change.
 *
 * A kept answer is handed to every read as it is, not copied: the gateway treats upstream data as
 * read-only. It is not frozen either, because Pothos marks the objects a node resolves with their
 * type (a symbol property), which a frozen object refuses (test/integration/cache.test.ts reads nodes from it),
 * and because it is read lazily (lazy-model.ts): each field is parsed by the first read that asks
 * for it and kept in the record, so what one operation parsed stays parsed for the next.
 */
export class RecordCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #byKind = new Map<RecordKind, Set<string>>();
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #ttls: CacheTtls;
  #onWrite: ((kinds: readonly RecordKind[]) => void) | undefined;
  /** Bumped by every invalidation: a read that started before one must not store what it got. */
  #generation = 0;
  /** False while invalidations from other instances may be missed (their channel is down). */
  #trusted = true;
  readonly #stats = { hits: 0, misses: 0, joined: 0, invalidations: 0 };

  constructor(options: RecordCacheOptions) {
    this.#ttls = options.ttls;
    this.#entries = new LRUCache<string, Entry>({
      ...entryBound(options.maxEntries),
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
      dispose: (entry, key) => {
        for (const kind of entry.kinds) this.#byKind.get(kind)?.delete(key);
      },
    });
  }

  /**
   * The answer kept under `key` (the bank user and the exact request), or `load`'s: shared with
   * concurrent identical reads, and kept under `policy` unless something changed meanwhile.
   */
  async read<T>(key: string, policy: CachePolicy, load: () => Promise<T>): Promise<T> {
    if (!this.#trusted) return load();
    const entry = this.#entries.get(key);
    if (entry) {
      this.#stats.hits += 1;
      return entry.value as T;
    }
    const pending = this.#inFlight.get(key);
    if (pending) {
      this.#stats.joined += 1;
      return pending as Promise<T>;
    }
    this.#stats.misses += 1;
    const generation = this.#generation;
    const loading = load().then((value) => {
      if (generation === this.#generation && this.#trusted) this.#store(key, policy, value);
      return value;
    });
    this.#inFlight.set(key, loading);
    const forget = () => {
      if (this.#inFlight.get(key) === loading) this.#inFlight.delete(key);
    };
    loading.then(forget, forget);
    return loading;
  }

  /** A write this instance sent is over: drops what it changed here, and tells the other instances through `onWrite`'s listener. */
  wrote(kinds: readonly RecordKind[]): void {
    this.invalidate(kinds);
    if (kinds.length > 0) this.#onWrite?.(kinds);
  }

  /** Who passes this instance's writes on to the other instances (events/cache-invalidation.ts). */
  onWrite(listener: (kinds: readonly RecordKind[]) => void): void {
    this.#onWrite = listener;
  }

  /** Drops every user's records of these kinds; reads on their way now will not be stored. */
  invalidate(kinds: readonly RecordKind[]): void {
    if (kinds.length === 0) return;
    this.#generation += 1;
    this.#stats.invalidations += 1;
    // Joining a read that started before the change would hand out the old state.
    this.#inFlight.clear();
    for (const kind of kinds) {
      const keys = this.#byKind.get(kind);
      if (!keys) continue;
      for (const key of [...keys]) this.#entries.delete(key);
    }
  }

  /** Drops every user's records of every kind (the embedded sandbox's state changed behind the API). */
  clear(): void {
    this.invalidate(ALL_RECORD_KINDS);
  }

  /**
   * Whether invalidations from every instance reach this one. While they may not (Redis away), the
   * cache is bypassed rather than trusted; when they do again, what it held is dropped, since
   * invalidations may have been missed meanwhile.
   */
  setTrusted(trusted: boolean): void {
    if (trusted && !this.#trusted) this.clear();
    this.#trusted = trusted;
  }

  /** Whether reads are answered from the cache (see setTrusted). */
  get trusted(): boolean {
    return this.#trusted;
  }

  get stats(): RecordCacheStats {
    return { ...this.#stats, entries: this.#entries.size };
  }

  #store(key: string, policy: CachePolicy, value: unknown): void {
    const ttl = this.#ttls[policy.ttl];
    // A TTL of 0 keeps nothing of the class (lru-cache would read 0 as "forever").
    if (ttl <= 0) return;
    this.#entries.set(key, { value, kinds: policy.kinds }, { ttl });
    for (const kind of policy.kinds) {
      let keys = this.#byKind.get(kind);
      if (!keys) this.#byKind.set(kind, (keys = new Set()));
      keys.add(key);
    }
  }
}
