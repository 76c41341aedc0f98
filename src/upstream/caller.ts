import type { CallOptions, TokenSource, UpstreamClient } from './client.ts';
import type { Endpoint } from './endpoint.ts';

/** An upstream call with its token source already chosen (the gateway's own, or the caller's). */
export type Caller = <Data>(ep: Endpoint<Data>, options?: Omit<CallOptions, 'auth'>) => Promise<Data>;

export function bindCaller(client: UpstreamClient, auth: TokenSource): Caller {
  return (ep, options) => client.call(ep, { ...options, auth });
}
