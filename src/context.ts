import type { Tracer } from '@opentelemetry/api';
import type { CallerIdentity } from './auth/identity.ts';
import type { WebhookConfig } from './config.ts';
import type { EventBus } from './events/bus.ts';
import type { Logger } from './logger.ts';
import type { Upstream } from './upstream/index.ts';
import type { WebhookSubscriptionIdentity } from './upstream/webhooks.ts';

/** What every resolver gets: the upstream bound to this request's token, a logger and the event bus. */
export interface GatewayContext {
  upstream: Upstream;
  /** This request's logger: every line carries the request id. */
  logger: Logger;
  /** Who is calling (authenticated before the operation was parsed). */
  caller: CallerIdentity;
  /** Whom the operation counts against for its fair share and its operations per window (fairShareKey). */
  client: string;
  /** Records a bank token the bank's login just issued (accessTokenCreate), so its bank user is known without a proof. */
  learnBankToken(token: string): void;
  /** The gateway's id of this request: answered as x-request-id, sent upstream as x-correlation-id. */
  requestId: string;
  /** Accepted bank events, for subscriptions. */
  events: EventBus;
  /** The configured agent, sub-agent and company codes of webhook subscriptions. */
  webhookCodes: Partial<Pick<WebhookConfig, 'agentCode' | 'subagentCode' | 'companyCode'>>;
  /** The webhook subscriptions the gateway keeps for itself, which callers may not change. */
  gatewayWebhooks: GatewayWebhooks;
  /** With tracing on: loader batches are spans of the operation's trace (observability/tracing.ts). */
  tracer?: Tracer | undefined;
  /**
   * The signal the operation's upstream calls stop on (its deadline, its client leaving), once it
   * has started (yoga.ts); loaders start no batch after its client left.
   */
  operationSignal?: (() => AbortSignal | undefined) | undefined;
}

/** Which webhook subscriptions are the gateway's own (events/webhook-reconciler.ts), and where they deliver. */
interface GatewayWebhooks {
  owns(identity: WebhookSubscriptionIdentity): boolean;
  readonly deliveryUrl: string | null;
}
