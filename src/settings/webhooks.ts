/**
 * Bank events in (PUBLIC_URL, WEBHOOK_*): webhook intake, and the gateway's own webhook
 * subscriptions at the bank, with the codes they are filed under.
 */

import { group, httpUrl, int, setting, text } from '@banking-gateway/settings';
import type { z } from 'zod';
import type { RawEnvironment } from './raw-environment.ts';

export const webhooksGroup = group('Bank events in', "Webhook intake and the gateway's own webhook subscriptions at the bank.", {
  publicUrl: setting('PUBLIC_URL', httpUrl(), 'where the bank reaches this gateway', 'unset (embedded sandbox: loopback)'),
  apiKey: setting(
    'WEBHOOK_API_KEY',
    text(),
    'the x-api-key deliveries must carry; intake is off without it',
    'unset (embedded sandbox: random)',
  ),
  signingSecret: setting('WEBHOOK_SIGNING_SECRET', text(), 'HMAC secret for signed deliveries', 'unset (embedded sandbox: random)'),
  maxBytes: setting('WEBHOOK_MAX_BYTES', int(1024, 10 * 1024 * 1024, 256 * 1024), 'largest accepted delivery'),
  agentCode: setting(
    'WEBHOOK_AGENT_CODE',
    text(),
    "agent code of the gateway's webhook subscriptions (required with a real bank, PUBLIC_URL and WEBHOOK_API_KEY)",
    'unset (embedded sandbox: sandbox-agent)',
  ),
  subagentCode: setting(
    'WEBHOOK_SUBAGENT_CODE',
    text(),
    "subagent code of the gateway's webhook subscriptions (as the agent code)",
    'unset (embedded sandbox: sandbox-subagent)',
  ),
  companyCode: setting(
    'WEBHOOK_COMPANY_CODE',
    text(),
    "company code of the gateway's webhook subscriptions (as the agent code)",
    'unset (embedded sandbox: sandbox-company)',
  ),
  reconcileIntervalMs: setting(
    'WEBHOOK_RECONCILE_INTERVAL_MS',
    int(1_000, 86_400_000, 60_000),
    'how often the gateway checks that its own webhook subscriptions are still filed at the bank',
  ),
});

/** Webhook intake and the gateway's subscription to the bank's events. */
export type WebhookConfig = z.output<typeof webhooksGroup>;

/** Subscribing the gateway to a real bank's events needs the codes the subscription is filed under. */
export function webhookSubscriptionProblems({ set, variable, requiredWith }: RawEnvironment): string[] {
  if (!(set('upstream.baseUrl') && set('webhooks.publicUrl') && set('webhooks.apiKey'))) return [];
  return requiredWith(
    ['webhooks.agentCode', 'webhooks.subagentCode', 'webhooks.companyCode'],
    `when ${variable('webhooks.publicUrl')} and ${variable('webhooks.apiKey')} are set`,
  );
}
