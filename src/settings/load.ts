/**
 * Reading the configuration from the environment: every setting's own problems and every rule across
 * settings (each group's file holds its rules), reported all at once, so an operator fixes a
 * deployment in one round trip rather than one variable per restart.
 */

import { ConfigError } from '@banking-gateway/settings';
import { bankLoginProblems, bankProblems } from './bank.ts';
import { callerAuthProblems, jwtClaimProblems, serviceCredentialProblems } from './caller-checks.ts';
import { repeatedEntryProblems } from './caller-repeats.ts';
import type { CallerAuthConfig } from './callers.ts';
import { concurrencyProblems } from './concurrency.ts';
import { reader, type Config } from './config-schema.ts';
import { federationProblems } from './federation.ts';
import { rawEnvironment } from './raw-environment.ts';
import { redisProblems } from './redis.ts';
import { retiredVariableProblems } from './retired-variables.ts';
import { webhookSubscriptionProblems } from './webhooks.ts';

/** The configuration `env` gives, or every problem with it. */
export function readConfig(env: NodeJS.ProcessEnv): { ok: true; config: Config } | { ok: false; problems: string[] } {
  const result = reader.read(env);
  const settingProblems = result.ok
    ? [...concurrencyProblems(result.settings.concurrency, reader.variable), ...jwtClaimProblems(result.settings.auth.jwt, reader.variable)]
    : result.problems;
  const problems = [...settingProblems, ...crossSettingProblems(env)];
  return result.ok && problems.length === 0 ? { ok: true, config: result.settings } : { ok: false, problems };
}

/** The configuration `env` gives; a ConfigError lists every problem with it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read = readConfig(env);
  if (!read.ok) throw new ConfigError(read.problems);
  return read.config;
}

/**
 * Rules across settings, checked on the raw input so they are reported together with the
 * per-setting problems (a refinement would only run once every setting parsed).
 */
function crossSettingProblems(env: NodeJS.ProcessEnv): string[] {
  const raw = rawEnvironment(env, reader.variable);
  return [
    ...bankProblems(raw),
    ...webhookSubscriptionProblems(raw),
    ...bankLoginProblems(raw),
    ...callerAuthProblems(raw),
    ...redisProblems(raw),
    ...federationProblems(raw),
    ...retiredVariableProblems(env),
    ...repeatedEntryProblems(raw),
  ];
}

/**
 * What a caller configuration built without the environment (tests, the benchmark) lacks, by the
 * rule the start holds the variables to: service mode needs API keys or a JWKS (createCallerAuth).
 */
export function callerCredentialProblems(auth: Pick<CallerAuthConfig, 'mode' | 'apiKeys' | 'jwt'>): string[] {
  return serviceCredentialProblems(reader.variable, { mode: auth.mode, apiKeys: auth.apiKeys.length > 0, jwt: auth.jwt !== undefined });
}
