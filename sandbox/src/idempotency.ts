import { badRequest, type Reply } from './http.ts';

/**
 * Writes are idempotent on x-request-id. The same key with the same request replays the
 * stored status and body without running the handler again; the same key with a different
 * request is refused. The pending reply is stored before the handler finishes, so a
 * concurrent duplicate waits for the first call instead of running twice. Server errors
 * (5xx) are not kept: the write did not happen, and a retry must be able to run it.
 */
export interface IdempotencyCache {
  run(key: string, fingerprint: string, execute: () => Promise<Reply>): Promise<Reply>;
  clear(): void;
}

// Bounded so long benchmark runs with fresh keys cannot grow memory without limit; the
// oldest keys are forgotten first (Map iteration is insertion order).
const MAX_ENTRIES = 10_000;

interface Entry {
  fingerprint: string;
  reply: Promise<Reply>;
}

export function createIdempotencyCache(): IdempotencyCache {
  const entries = new Map<string, Entry>();

  const forget = (key: string, entry: Entry): void => {
    if (entries.get(key) === entry) entries.delete(key);
  };

  return {
    async run(key, fingerprint, execute) {
      const existing = entries.get(key);
      if (existing) {
        if (existing.fingerprint !== fingerprint) {
          throw badRequest(`x-request-id ${key} was already used for a different request`);
        }
        return structuredClone(await existing.reply);
      }
      // Snapshot at once: reply bodies may reference live store records that later change.
      const entry: Entry = { fingerprint, reply: execute().then((reply) => structuredClone(reply)) };
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      try {
        const reply = await entry.reply;
        if (reply.status >= 500) forget(key, entry);
        return structuredClone(reply);
      } catch (error) {
        forget(key, entry);
        throw error;
      }
    },
    clear() {
      entries.clear();
    },
  };
}

/**
 * What "the same request" means: method, path, query string and body. The query is part
 * of it because Document 2 writes carry their target id there (PATCH /card?id=...).
 * The body is compared as canonical JSON, so key order and whitespace do not matter.
 */
export function requestFingerprint(method: string, path: string, query: Record<string, string>, body: unknown): string {
  return JSON.stringify([method, path, canonical(query), canonical(body ?? null)]);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
