import type { CallerIdentity } from './auth/identity.ts';
import type { WebhookConfig } from './config.ts';
import type { EventBus } from './events/bus.ts';
import type { Logger } from './logger.ts';
import type { Upstream } from './upstream/index.ts';

/** What every resolver gets: the upstream bound to this request's token, a logger and the event bus. */
export interface GatewayContext {
  upstream: Upstream;
  /** This request's logger: every line carries the request id. */
  logger: Logger;
  /** Who is calling (authenticated before the operation was parsed). */
  caller: CallerIdentity;
  /** The gateway's id of this request: answered as x-request-id, sent upstream as x-correlation-id. */
  requestId: string;
  /** Accepted bank events, for subscriptions. */
  events: EventBus;
  /** The configured agent, sub-agent and company codes of webhook subscriptions. */
  webhookCodes: Partial<Pick<WebhookConfig, 'agentCode' | 'subagentCode' | 'companyCode'>>;
}
