import type { UpstreamConfig, WebhookConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { WEBHOOK_PATH } from './intake.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { carriesApiKey, findSubscription, type WebhookSubscriptionIdentity } from '../upstream/webhooks.ts';

/**
 * Start-up: make sure the bank delivers every event of the program's catalogue to this gateway.
 *
 * With `publicUrl` and `apiKey` configured, every catalogue event must have a WEBHOOK (`w`)
 * subscription, under the configured agent, sub-agent and company codes, that posts to
 * `${publicUrl}/webhooks` with the configured key. Missing ones are subscribed; ones that are a
 * notification, point elsewhere or carry another key are updated; the rest are left alone, so a
 * second run writes nothing. Subscriptions of events outside the catalogue are not touched.
 *
 * The key cannot be compared through the masked record the graph sees: `carriesApiKey` (in
 * `upstream/webhooks.ts`) compares it with a keyed fingerprint of the stored key, taken when the
 * record was read, so the full key never leaves `upstream/` and a rotated key that happens to keep
 * its last four characters is still noticed.
 *
 * Calls run one after another; the first failure rejects, what was written before it stays, and a
 * later run carries on from there.
 */

export interface EnsureWebhookSubscriptionsOptions {
  /** The upstream runtime (`gateway.upstream`): its connection pool. Webhook management takes no token. */
  upstream: Pick<UpstreamRuntime, 'forRequest'>;
  /** Its configuration: the product id is webhook management's program_code. */
  upstreamConfig: Pick<UpstreamConfig, 'productId'>;
  /** `config.webhooks`: publicUrl, apiKey and the three codes. */
  webhooks: Pick<WebhookConfig, 'publicUrl' | 'apiKey' | 'agentCode' | 'subagentCode' | 'companyCode'>;
  logger: Logger;
  /** created_by and updated_by of the writes. */
  actor?: string;
}

export interface EnsureWebhookSubscriptionsSummary {
  /** Event names subscribed now. */
  created: string[];
  /** Event names whose subscription was changed to point at this gateway with its key. */
  updated: string[];
  /** Event names already subscribed as wanted. */
  unchanged: string[];
  /** Why nothing was checked (a setting is missing); null when the run happened. */
  skipped: string | null;
}

export const GATEWAY_ACTOR = 'banking-gateway';

export async function ensureWebhookSubscriptions(options: EnsureWebhookSubscriptionsOptions): Promise<EnsureWebhookSubscriptionsSummary> {
  const { webhooks: config, logger } = options;
  const summary: EnsureWebhookSubscriptionsSummary = { created: [], updated: [], unchanged: [], skipped: null };
  if (!config.publicUrl || !config.apiKey) {
    const skipped = 'PUBLIC_URL and WEBHOOK_API_KEY are not both set';
    logger.info({ skipped }, 'the gateway does not subscribe itself to webhook events');
    return { ...summary, skipped };
  }
  const { agentCode, subagentCode, companyCode } = config;
  if (!agentCode || !subagentCode || !companyCode) {
    const skipped = 'WEBHOOK_AGENT_CODE, WEBHOOK_SUBAGENT_CODE and WEBHOOK_COMPANY_CODE are not all set';
    logger.warn({ skipped }, 'the gateway cannot subscribe itself to webhook events');
    return { ...summary, skipped };
  }

  const url = `${config.publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`;
  const apiKey = config.apiKey;
  const actor = options.actor ?? GATEWAY_ACTOR;
  const programCode = options.upstreamConfig.productId;
  // Webhook management takes no token: the runtime's webhook API makes no login for it.
  const api = options.upstream.forRequest({ gatewayLogin: true }).webhooks;
  const [catalogue, current] = await Promise.all([
    api.catalogue(programCode),
    api.subscriptions({ programCode, agentCode, subagentCode }),
  ]);

  for (const eventName of new Set(catalogue.map((entry) => entry.eventName))) {
    const identity: WebhookSubscriptionIdentity = { eventName, agentCode, subagentCode, programCode, companyCode };
    const existing = findSubscription(current, identity);
    const target = { type: 'WEBHOOK', url, apiKey } as const;
    if (!existing) {
      await api.subscribe({ ...identity, ...target, createdBy: actor });
      summary.created.push(eventName);
    } else if (existing.type !== 'WEBHOOK' || existing.url !== url || !carriesApiKey(existing, apiKey)) {
      await api.update({ ...identity, ...target, updatedBy: actor });
      summary.updated.push(eventName);
    } else {
      summary.unchanged.push(eventName);
    }
  }
  logger.info(
    { url, created: summary.created.length, updated: summary.updated.length, unchanged: summary.unchanged.length },
    'webhook subscriptions ensured',
  );
  return summary;
}
