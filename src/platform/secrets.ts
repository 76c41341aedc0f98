import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares two secrets in constant time whatever their lengths: both sides are hashed to one size first. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function sha256Hex(value: string): string {
  return sha256(value).toString('hex');
}
