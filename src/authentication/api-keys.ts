import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '../platform/secrets.ts';

/** The gateway keeps SHA-256 hashes of its callers' API keys, never the keys. */
export { sha256Hex } from '../platform/secrets.ts';

/**
 * Equality that takes the same time wherever the inputs differ. Different lengths are unequal
 * without a byte compare (only the length is learnt, and all SHA-256 digests share one).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

export interface NamedKeyHash {
  name: string;
  sha256: string;
}

/**
 * `key` → the name of the configured key it matches, or undefined. Every configured hash is
 * compared, match or not, so the time taken says nothing about which key (or how much of one) matched.
 */
export function createApiKeyMatcher(keys: readonly NamedKeyHash[]): (key: string) => string | undefined {
  const stored = keys.map(({ name, sha256 }) => ({ name, digest: Buffer.from(sha256, 'hex') }));
  return (key) => {
    const digest = sha256(key);
    let matched: string | undefined;
    for (const entry of stored) {
      if (constantTimeEqual(digest, entry.digest) && matched === undefined) matched = entry.name;
    }
    return matched;
  };
}
