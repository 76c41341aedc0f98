/**
 * The configuration's one entry point: the rest of the code imports its schema (config-schema.ts),
 * loadConfig (load.ts), the defaults and each group's types from here, never from the files behind it.
 */

export { ConfigError } from '@banking-gateway/settings';
export type { GroupMeta, SettingEntry } from '@banking-gateway/settings';
export { CONFIG_VARIABLES, configSchema, SETTINGS, type Config } from './config-schema.ts';
export { callerCredentialProblems, loadConfig } from './load.ts';
/** Every group's defaults (DEFAULT_*), for code that builds a gateway without the environment. */
export * from './defaults.ts';
export { upstreamFor, type UpstreamConfig } from './upstream.ts';
export type { LogLevel } from './server.ts';
export type { BankLoginCredentials, ContractCheckConfig } from './bank.ts';
export type { ConcurrencyConfig } from './concurrency.ts';
export type { ClientRateLimitConfig } from './client-rate-limit.ts';
export type { CacheConfig } from './cache.ts';
export type { LiveQueryConfig } from './live-queries.ts';
export type { ApiKeyConfig, CallerAuthConfig, JwtConfig } from './callers.ts';
export type { AuditConfig } from './audit.ts';
export { SHIPPED_TRUSTED_DOCUMENTS, type QueryLimitsConfig } from './limits.ts';
export type { FederationConfig } from './federation.ts';
export type { BreakerConfig, ResilienceConfig } from './resilience.ts';
export type { WebhookConfig } from './webhooks.ts';
export type { EventLogConfig } from './events.ts';
export type { EventDurability, RedisTarget } from './redis.ts';
export type { TracingConfig } from './observability.ts';
