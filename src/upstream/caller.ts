import type { CallOptions, TokenSource, UpstreamClient } from './client.ts';
import type { Endpoint } from './endpoint.ts';
import { UpstreamNotFoundError, UpstreamRejectedError } from './errors.ts';

/** An upstream call with its token source already chosen (the gateway's own, or the caller's). */
export type Caller = <Data>(ep: Endpoint<Data>, options?: Omit<CallOptions, 'auth'>) => Promise<Data>;

export function bindCaller(client: UpstreamClient, auth: TokenSource): Caller {
  return (ep, options) => client.call(ep, { ...options, auth });
}

/**
 * For reads by id: the upstream answers an unknown id with a 400 whose message ends in "not found"
 * (Document 1 sends every failure as 400; see README), or a 404. Either means "no such record".
 */
export async function orNullIfNotFound<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof UpstreamNotFoundError) return null;
    if (error instanceof UpstreamRejectedError && /not found\.?$/i.test(error.upstreamMessage ?? '')) return null;
    throw error;
  }
}
