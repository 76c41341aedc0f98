import type { GatewayContext } from '../context.ts';
import { LinkedRecordNotFoundError } from '../upstream/errors.ts';

/** What a link can point at: a Pothos loadable node ref, with its per-request loader. */
interface LinkTarget<K> {
  name: string;
  getDataloader(context: GatewayContext): { load(key: K): Promise<unknown> };
}

/**
 * Resolves a link to the record another record names by id (a card's cardholder, a payout's quote).
 * The id the bank sent is always a field of its own (`<link>UpstreamId`, see docs/frontend.md "Schema
 * conventions"), so it survives when the record cannot be read; a record the bank does not find is
 * an error on the link (NOT_FOUND with the type and id), never a silent null. Returns the key, which
 * Pothos then takes from the loader's cache; null at once for a record that names none.
 */
export function readLink<K>(target: LinkTarget<K>, key: K | null | undefined, upstreamId: string | null | undefined, context: GatewayContext): Promise<K | null> | null {
  if (key == null || upstreamId == null) return null;
  // Not an async function: a link is read for every item of a list (each card's cardholder).
  return target
    .getDataloader(context)
    .load(key)
    .then((record) => {
      if (record == null) throw new LinkedRecordNotFoundError(target.name, upstreamId);
      return key;
    });
}
