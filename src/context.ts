import type { Tracer } from '@opentelemetry/api';
import type { CardFreezes } from './authorization/card-freezes.ts';
import type { CallerIdentity } from './authentication/identity.ts';
import type { WebhookConfig } from './settings/index.ts';
import type { EventBus } from './events/bus.ts';
import type { Logger } from './platform/logger.ts';
import type { Upstream } from './upstream/index.ts';
import type { OperationBounds } from './upstream/operation.ts';
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
  /** The gateway's own id of this request, unique: answered as x-request-id, sent upstream as x-correlation-id. */
  requestId: string;
  /** The x-request-id the caller sent, when plausible: kept beside the gateway's in the log and the audit trail. */
  clientRequestId?: string | null | undefined;
  /** Accepted bank events, for subscriptions. */
  events: EventBus;
  /** Who made each card's freeze: a cardholder lifts only its own (authorization/card-freezes.ts). */
  cardFreezes: CardFreezes;
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
  /** The operation's bounds once it has started (yoga.ts): the audit trail reads the writes it sent. */
  operation?: (() => OperationBounds | undefined) | undefined;
}

/** Which webhook subscriptions are the gateway's own (events/webhook-reconciler.ts), and where they deliver. */
interface GatewayWebhooks {
  owns(identity: WebhookSubscriptionIdentity): boolean;
  readonly deliveryUrl: string | null;
}
