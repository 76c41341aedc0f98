/** The configuration's defaults, group by group, for code that builds a gateway without the environment (tests, benchmark). */

import { ConfigError } from '@banking-gateway/settings';
import type { AuditConfig } from './audit.ts';
import type { ContractCheckConfig } from './bank.ts';
import type { CacheConfig } from './cache.ts';
import type { CallerAuthConfig } from './callers.ts';
import type { ClientRateLimitConfig } from './client-rate-limit.ts';
import type { ConcurrencyConfig } from './concurrency.ts';
import { reader } from './config-schema.ts';
import type { EventLogConfig } from './events.ts';
import type { FederationConfig } from './federation.ts';
import type { QueryLimitsConfig } from './limits.ts';
import type { LiveQueryConfig } from './live-queries.ts';
import type { EventDurability } from './redis.ts';
import type { ResilienceConfig } from './resilience.ts';
import type { WebhookConfig } from './webhooks.ts';

const DEFAULT_CONFIG = ((result) => {
  if (!result.ok) throw new ConfigError(result.problems);
  return result.settings;
})(reader.read({}));

export const DEFAULT_EVENT_LOG: EventLogConfig = DEFAULT_CONFIG.events.log;
export const DEFAULT_EVENT_DURABILITY: EventDurability = DEFAULT_CONFIG.events.durability;
export const DEFAULT_LIMITS: QueryLimitsConfig = DEFAULT_CONFIG.limits;
export const DEFAULT_RESILIENCE: ResilienceConfig = DEFAULT_CONFIG.resilience;
export const DEFAULT_CONCURRENCY: ConcurrencyConfig = DEFAULT_CONFIG.concurrency;
export const DEFAULT_CACHE: CacheConfig = DEFAULT_CONFIG.cache;
export const DEFAULT_CONTRACT_CHECK: ContractCheckConfig = DEFAULT_CONFIG.upstream.contractCheck;
export const DEFAULT_CLIENT_RATE_LIMIT: ClientRateLimitConfig = DEFAULT_CONFIG.clientRateLimit;
export const DEFAULT_LIVE_QUERIES: LiveQueryConfig = DEFAULT_CONFIG.liveQueries;
export const DEFAULT_WEBHOOKS: WebhookConfig = DEFAULT_CONFIG.webhooks;
export const DEFAULT_FEDERATION: FederationConfig = DEFAULT_CONFIG.federation;
export const DEFAULT_AUDIT: AuditConfig = DEFAULT_CONFIG.audit;
/** Mode none, as with no AUTH_MODE, but no browser origins: a gateway built without the environment names none. */
export const DEFAULT_AUTH: CallerAuthConfig = { ...DEFAULT_CONFIG.auth, allowedOrigins: [] };
