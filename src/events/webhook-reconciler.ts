import type { WebhookConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { carriesApiKey, findSubscription, type WebhookSubscription, type WebhookSubscriptionIdentity } from '../upstream/webhooks.ts';
import { WEBHOOK_PATH } from './intake.ts';

/**
 * The gateway's own webhook subscriptions, kept filed at the bank. Live updates depend on them, and
 * they can vanish or change behind the gateway's back (a sandbox reset, someone's write, the bank's
 * own housekeeping), so they are reconciled: at start, every WEBHOOK_RECONCILE_INTERVAL_MS, and at
 * once when asked (the embedded sandbox's reset).
 *
 * One pass (`ensureWebhookSubscriptions`): every catalogue event must have a WEBHOOK (`w`)
 * subscription, under the configured agent, sub-agent and company codes, that posts to
 * `${publicUrl}/webhooks` with the configured key. Missing ones are subscribed; ones that are a
 * notification, point elsewhere or carry another key are updated; the rest are left alone, so a
 * pass over a correct state writes nothing. Subscriptions of other events or codes are not touched.
 * The key is compared through `carriesApiKey` (upstream/webhooks.ts), a keyed fingerprint of the
 * stored key, so the full key never leaves `upstream/` and a rotated key with the same last four
 * characters is still noticed. A failed write does not stop the pass: its event is reported uncovered.
 *
 * The reconciler runs passes one at a time (a pass asked for during one runs once after it), never
 * throws out of its timer, and logs changes only: a subscription found missing or wrong once, once
 * more when fixed; a failing check once when it starts failing and once when it works again.
 */

const GATEWAY_ACTOR = 'banking-gateway';

type ManagedConfig = Pick<WebhookConfig, 'publicUrl' | 'apiKey' | 'agentCode' | 'subagentCode' | 'companyCode'>;

export interface EnsureWebhookSubscriptionsOptions {
  /** The upstream runtime (`gateway.upstream`): its connection pool. Webhook management takes no token. */
  upstream: Pick<UpstreamRuntime, 'forRequest'>;
  /** The product id: webhook management's program_code. */
  programCode: string;
  /** publicUrl, apiKey and the three codes. */
  webhooks: ManagedConfig;
  /** created_by and updated_by of the writes. */
  actor?: string;
  /** A failure in words fit for /readyz and the logs (no upstream address): see WebhookReconcilerOptions. */
  explain?: (error: unknown) => string;
}

export interface EnsureWebhookSubscriptionsSummary {
  /** Event names subscribed now. */
  created: string[];
  /** Event names whose subscription was changed to point at this gateway with its key. */
  updated: string[];
  /** Event names already subscribed as wanted. */
  unchanged: string[];
  /** Event names whose subscription was missing or wrong and could not be fixed, with why. */
  failed: { eventName: string; reason: string }[];
  /** Why nothing was checked (a setting is missing); null when the pass happened. */
  skipped: string | null;
}

/** What the gateway's subscriptions must be, or why this configuration manages none. */
type Target = { url: string; apiKey: string; agentCode: string; subagentCode: string; companyCode: string } | { skipped: string };

function targetOf(config: ManagedConfig): Target {
  const { publicUrl, apiKey, agentCode, subagentCode, companyCode } = config;
  if (!publicUrl || !apiKey) return { skipped: 'PUBLIC_URL and WEBHOOK_API_KEY are not both set' };
  if (!agentCode || !subagentCode || !companyCode)
    return { skipped: 'WEBHOOK_AGENT_CODE, WEBHOOK_SUBAGENT_CODE and WEBHOOK_COMPANY_CODE are not all set' };
  return { url: `${publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`, apiKey, agentCode, subagentCode, companyCode };
}

/** Why the gateway does not manage its subscriptions with this configuration; null when it does. */
function unmanagedReason(config: ManagedConfig): string | null {
  const target = targetOf(config);
  return 'skipped' in target ? target.skipped : null;
}

/** What is wrong with the gateway's subscription of one event, or null when nothing is. */
function problemOf(existing: WebhookSubscription | undefined, url: string, apiKey: string): string | null {
  if (!existing) return 'missing';
  if (existing.subscriptionType !== 'WEBHOOK') return 'a notification instead of a webhook';
  if (existing.webhookUrl !== url) return `pointing at ${existing.webhookUrl ?? 'no address'}`;
  return carriesApiKey(existing, apiKey) ? null : 'carrying another key';
}

/** One pass. Rejects only when the bank's catalogue or subscriptions cannot be read. */
export async function ensureWebhookSubscriptions(options: EnsureWebhookSubscriptionsOptions): Promise<EnsureWebhookSubscriptionsSummary> {
  const summary: EnsureWebhookSubscriptionsSummary = { created: [], updated: [], unchanged: [], failed: [], skipped: null };
  const target = targetOf(options.webhooks);
  if ('skipped' in target) return { ...summary, skipped: target.skipped };
  const { url, apiKey, agentCode, subagentCode, companyCode } = target;
  const actor = options.actor ?? GATEWAY_ACTOR;
  const { programCode } = options;
  // Webhook management takes no token: the runtime's webhook API makes no login for it.
  const api = options.upstream.forRequest({ gatewayLogin: true }).webhooks;
  const [catalogue, current] = await Promise.all([api.catalogue(programCode), api.subscriptions({ programCode, agentCode, subagentCode })]);

  for (const eventName of new Set(catalogue.map((entry) => entry.eventName))) {
    const identity: WebhookSubscriptionIdentity = { eventName, agentCode, subagentCode, programCode, companyCode };
    const existing = findSubscription(current, identity);
    if (problemOf(existing, url, apiKey) === null) {
      summary.unchanged.push(eventName);
      continue;
    }
    const wanted = { type: 'WEBHOOK', url, apiKey } as const;
    try {
      // The complete record (the update sends every field): the stored sender and creator stay.
      if (existing)
        await api.update({
          ...identity,
          ...wanted,
          senderEmail: existing.senderEmail,
          createdBy: existing.createdBy ?? actor,
          updatedBy: actor,
        });
      else await api.subscribe({ ...identity, ...wanted, createdBy: actor });
      (existing ? summary.updated : summary.created).push(eventName);
    } catch (error) {
      summary.failed.push({ eventName, reason: (options.explain ?? plainMessage)(error) });
    }
  }
  return summary;
}

const plainMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

// --- The reconciler ------------------------------------------------------------------------------

export interface WebhookReconcilerOptions {
  upstream: Pick<UpstreamRuntime, 'forRequest'>;
  programCode: string;
  /** The intake key, the codes and the interval; the public URL comes with start(). */
  webhooks: Omit<ManagedConfig, 'publicUrl'> & Pick<WebhookConfig, 'reconcileIntervalMs'>;
  logger: Logger;
  /** A failure in words fit for /readyz, which may be reachable from outside (the gateway's error descriptions). */
  explain?: (error: unknown) => string;
}

/** For /readyz (see src/routes/health.ts): not essential, so a gap makes the answer "degraded", not 503. */
type WebhookCoverage = {
  ok: boolean;
  essential: false;
  detail: string;
  /** Whether the gateway manages its own subscriptions (PUBLIC_URL, WEBHOOK_API_KEY and the codes set). */
  managed: boolean;
  /** Catalogue events without a correct subscription as of the last pass. */
  uncovered: string[];
  lastCheckedAt: string | null;
};

export interface WebhookReconciler {
  /** Starts managing subscriptions that deliver to `${publicUrl}/webhooks`: a pass now, then every interval. */
  start(publicUrl: string | undefined): void;
  /** A pass now (after the one under way, if any); resolves with its summary and never rejects. */
  reconcileNow(reason: string): Promise<EnsureWebhookSubscriptionsSummary | { error: string }>;
  /** Resolves once no pass is under way or waiting. */
  idle(): Promise<void>;
  coverage(): WebhookCoverage;
  /** Whether a subscription with this identity is one the gateway keeps for itself. */
  owns(identity: WebhookSubscriptionIdentity): boolean;
  /** Where the gateway's subscriptions deliver; null while it manages none. */
  readonly deliveryUrl: string | null;
  stop(): void;
}

export function createWebhookReconciler(options: WebhookReconcilerOptions): WebhookReconciler {
  const { logger, programCode } = options;
  const explain = options.explain ?? plainMessage;
  let publicUrl: string | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<EnsureWebhookSubscriptionsSummary | { error: string }> | undefined;
  let queued: Promise<EnsureWebhookSubscriptionsSummary | { error: string }> | undefined;
  let passes = 0;
  let lastCheckedAt: string | null = null;
  let checkFailure: string | null = null;
  /** Names reported missing or wrong and not yet fixed: each is logged once when found, once when fixed. */
  const reported = new Set<string>();
  let uncovered: string[] = [];

  const config = (): ManagedConfig => ({ ...options.webhooks, publicUrl });
  const managed = () => publicUrl !== undefined && unmanagedReason(config()) === null;

  /** Logs what changed since the last pass: each name once when found wrong, once when fixed. */
  function record(summary: EnsureWebhookSubscriptionsSummary, reason: string): void {
    const fixed = [...summary.created, ...summary.updated];
    const failed = summary.failed.map((f) => f.eventName);
    // The first pass files what a new deployment lacks: that is the start, not news.
    const first = passes === 1;
    if (first)
      logger.info(
        { created: summary.created, updated: summary.updated, unchanged: summary.unchanged.length, url: `${publicUrl}${WEBHOOK_PATH}` },
        'webhook subscriptions filed',
      );
    const found = first ? [] : [...fixed, ...failed].filter((name) => !reported.has(name));
    if (found.length > 0)
      logger.warn({ eventNames: found, reason }, "the gateway's webhook subscriptions were missing or wrong: filing them again");
    const newlyFailed = summary.failed.filter((f) => !reported.has(f.eventName));
    if (newlyFailed.length > 0)
      logger.error(
        { failed: newlyFailed },
        'webhook subscriptions could not be filed: those events will not arrive until a later pass files them',
      );
    const back = first ? [] : [...fixed, ...summary.unchanged.filter((name) => reported.has(name))];
    if (back.length > 0) logger.info({ eventNames: back }, "the gateway's webhook subscriptions are filed again: live updates flow");
    for (const name of [...fixed, ...summary.unchanged]) reported.delete(name);
    for (const name of failed) reported.add(name);
    uncovered = failed;
  }

  async function pass(reason: string): Promise<EnsureWebhookSubscriptionsSummary | { error: string }> {
    try {
      const summary = await ensureWebhookSubscriptions({ upstream: options.upstream, programCode, webhooks: config(), explain });
      passes += 1;
      lastCheckedAt = new Date().toISOString();
      if (checkFailure !== null) logger.info('the webhook subscriptions can be checked again');
      checkFailure = null;
      record(summary, reason);
      return summary;
    } catch (error) {
      const failure = explain(error);
      if (checkFailure === null)
        logger.warn({ reason: failure }, "the gateway's webhook subscriptions cannot be checked; trying again every interval");
      checkFailure = failure;
      return { error: failure };
    }
  }

  type Outcome = EnsureWebhookSubscriptionsSummary | { error: string };

  function begin(reason: string): Promise<Outcome> {
    running = pass(reason).finally(() => {
      running = undefined;
    });
    return running;
  }

  function reconcileNow(reason: string): Promise<Outcome> {
    if (!managed()) return Promise.resolve({ error: unmanagedReason(config()) ?? 'not started' });
    if (queued) return queued;
    if (!running) return begin(reason);
    // One pass waits behind the one under way, however many ask meanwhile.
    queued = running.then(() => {
      queued = undefined;
      return begin(reason);
    });
    return queued;
  }

  return {
    start(url) {
      publicUrl = url?.replace(/\/+$/, '');
      const why = unmanagedReason(config());
      if (why) {
        logger.info({ reason: why }, 'the gateway does not subscribe itself to bank events (no live updates from the bank)');
        return;
      }
      void reconcileNow('start');
      timer = setInterval(() => void reconcileNow('interval'), options.webhooks.reconcileIntervalMs);
      timer.unref();
    },
    reconcileNow,
    idle: async () => {
      while (running || queued) await (queued ?? running);
    },
    coverage(): WebhookCoverage {
      const base = { essential: false as const, managed: managed(), uncovered, lastCheckedAt };
      if (!managed()) return { ...base, ok: true, detail: `not managed: ${unmanagedReason(config()) ?? 'not started'}` };
      if (checkFailure !== null)
        return { ...base, ok: false, detail: `the gateway's webhook subscriptions cannot be checked: ${checkFailure}` };
      if (lastCheckedAt === null) return { ...base, ok: true, detail: 'first check under way' };
      if (uncovered.length > 0)
        return { ...base, ok: false, detail: `no subscription delivers these events here: ${uncovered.join(', ')}` };
      return { ...base, ok: true, detail: `every catalogue event is delivered to ${publicUrl}${WEBHOOK_PATH}` };
    },
    owns: (identity) =>
      managed() &&
      identity.programCode === programCode &&
      identity.agentCode === options.webhooks.agentCode &&
      identity.subagentCode === options.webhooks.subagentCode &&
      identity.companyCode === options.webhooks.companyCode,
    get deliveryUrl() {
      return managed() ? `${publicUrl}${WEBHOOK_PATH}` : null;
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      publicUrl = undefined;
    },
  };
}
