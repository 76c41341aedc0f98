import { createContextCache } from '@pothos/core';
import { clearAllDataLoaders } from '@pothos/plugin-dataloader';
import DataLoader from 'dataloader';
import type { GatewayContext } from '../context.ts';
import { loaderBatch } from './loader-batch.ts';

/**
 * A per-request DataLoader for reads that are not a Node of their own (a card's detail, a
 * cardholder's wallet): fetched once per key per request, and only when a field asks for them.
 * `name` names its batches in traces.
 */
export function perRequestLoader<K, V>(name: string, load: (key: K, context: GatewayContext) => Promise<V>) {
  const batch = loaderBatch(name, (keys: readonly K[], context: GatewayContext) =>
    Promise.all(keys.map((key) => load(key, context).catch((error: unknown) => error as Error))),
  );
  return createContextCache((context: GatewayContext) => {
    const loader = new DataLoader<K, V>((keys) => batch(keys, context));
    requestLoaders(context).add(loader);
    return loader;
  });
}

const requestLoaders = createContextCache((_context: GatewayContext) => new Set<{ clearAll(): unknown }>());

/**
 * Forgets every read cached for this context (Pothos' loaders and ours). A subscription keeps one
 * context for its whole life: each event must resolve its linked fields afresh, not from the
 * first event's cache.
 */
export function forgetRequestReads(context: GatewayContext): void {
  clearAllDataLoaders(context);
  for (const loader of requestLoaders(context)) loader.clearAll();
}
