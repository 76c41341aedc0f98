/**
 * The configuration schema: every group of settings in the order the docs list them (each group's
 * file holds its settings), with the defaults that depend on another group resolved.
 */

/*
 * This schema is the only place that names an environment variable, its default and its rule.
 * loadConfig (load.ts) reads the environment into it and reports every problem at once. Its output
 * is the configuration the gateway uses: a group that the gateway reads differently from its
 * variables is read into that shape by the schema itself (`groupAs`), so each group has one shape
 * and the rest of the code receives typed slices of it. docs/configuration.md's tables and
 * .env.example are generated from it (`npm run config:docs`), and a test fails when they drift.
 */

import { settingsReader } from '@banking-gateway/settings';
import { sandboxSettingsSchema } from '@banking-gateway/settings/sandbox';
import { z } from 'zod';
import { auditGroup } from './audit.ts';
import { bankGroup } from './bank.ts';
import { cacheGroup } from './cache.ts';
import { callersGroup, withExampleWebOrigins } from './callers.ts';
import { clientRateLimitGroup } from './client-rate-limit.ts';
import { concurrencyGroup } from './concurrency.ts';
import { eventsGroup } from './events.ts';
import { federationGroup } from './federation.ts';
import { limitsGroup, withProductionDefaults } from './limits.ts';
import { liveQueriesGroup } from './live-queries.ts';
import { metricsGroup, tracingGroup } from './observability.ts';
import { resilienceGroup } from './resilience.ts';
import { serverGroup } from './server.ts';
import { webhooksGroup } from './webhooks.ts';

/** Every group, each in the shape the gateway uses, before the defaults that depend on another group. */
const settingGroups = z.object({
  server: serverGroup,
  upstream: bankGroup,
  concurrency: concurrencyGroup,
  clientRateLimit: clientRateLimitGroup,
  cache: cacheGroup,
  liveQueries: liveQueriesGroup,
  sandbox: sandboxSettingsSchema,
  auth: callersGroup,
  audit: auditGroup,
  limits: limitsGroup,
  federation: federationGroup,
  resilience: resilienceGroup,
  webhooks: webhooksGroup,
  events: eventsGroup,
  metrics: metricsGroup,
  tracing: tracingGroup,
});

/** The configuration as the gateway uses it: every group in its one shape, with the defaults that depend on another group resolved. */
export const configSchema = settingGroups.transform((groups) => ({
  ...groups,
  auth: withExampleWebOrigins(groups.auth, groups.upstream.bank !== undefined),
  limits: withProductionDefaults(groups.limits, groups.server.nodeEnv === 'production'),
}));

export type Config = z.output<typeof configSchema>;

export const reader = settingsReader(configSchema);

/** Every setting in schema order, each with its path (`resilience.breaker.minCalls`). */
export const SETTINGS = reader.entries;

/** Every variable the gateway and `npm run sandbox` read. */
export const CONFIG_VARIABLES: readonly string[] = SETTINGS.map((entry) => entry.meta.env);
