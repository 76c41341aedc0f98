import type { Logger } from './logger.ts';
import type { Upstream } from './upstream/index.ts';

/** What every resolver gets: the upstream bound to this request's token, and a request logger. */
export interface GatewayContext {
  upstream: Upstream;
  logger: Logger;
}
