import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * The parsed documents Yoga keeps (its parse and validation caches), bounded by the length of their
 * text rather than by their number: a document's parsed tree weighs tens of bytes per character of
 * its text (docs/operations.md, "Memory"), so Yoga's own bound of 1,024 documents held anything
 * from a few megabytes to hundreds at the longest document MAX_TOKENS lets through.
 * Validation results live in Yoga's WeakMap by document, so they go with the documents.
 */

/** Yoga's `parserAndValidationCache` option: documents and parse errors, each kept within `maxTextKb` of text. */
export function documentCaches(maxTextKb: number): { documentCache: LRUCache<string, DocumentNode>; errorCache: LRUCache<string, object> } {
  return { documentCache: textBounded(maxTextKb), errorCache: textBounded(maxTextKb) };
}

/** An LRU cache keyed by document text whose keys' lengths add up to at most `maxTextKb` KB; a longer text is not kept. */
function textBounded<V extends object>(maxTextKb: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: maxTextKb * 1024, sizeCalculation: (_value, text) => Math.max(1, text.length) });
}
