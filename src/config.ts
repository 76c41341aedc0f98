import { z } from 'zod';

/**
 * Environment → typed config. Every problem is collected and reported at once so an operator fixes
 * a deployment in one round trip rather than one variable per restart.
 */

// Empty strings in env files mean "not set", not "set to empty".
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const optionalUrl = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
);
const intIn = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? fallback : v),
    z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be an integer' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` }),
  );

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z
  .object({
    PORT: intIn(0, 65535, 4000),
    HOST: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('0.0.0.0')),
    UPSTREAM_BASE_URL: optionalUrl,
    UPSTREAM_SERVICE_SEGMENT: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be a single path segment (letters, digits, . _ -)' })
        .default('svc'),
    ),
    DIRECT_DEBIT_BASE_URL: optionalUrl,
    UPSTREAM_API_KEY: optionalString,
    UPSTREAM_PRODUCT_ID: optionalString,
    UPSTREAM_USER_ID: optionalString,
    UPSTREAM_CLIENT_KEY: optionalString,
    UPSTREAM_CLIENT_ID: optionalString,
    UPSTREAM_CLIENT_SECRET: optionalString,
    UPSTREAM_EMAIL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.email({ error: 'must be an e-mail address' }).optional(),
    ),
    UPSTREAM_TIMEOUT_MS: intIn(100, 300_000, 10_000),
    UPSTREAM_MAX_CONCURRENCY: intIn(1, 1000, 50),
    SANDBOX_PORT: intIn(0, 65535, 4010),
    SANDBOX_LATENCY_MS: intIn(0, 60_000, 0),
    PUBLIC_URL: optionalUrl,
    WEBHOOK_API_KEY: optionalString,
    WEBHOOK_SIGNING_SECRET: optionalString,
    WEBHOOK_MAX_BYTES: intIn(1024, 10 * 1024 * 1024, 256 * 1024),
    WEBHOOK_AGENT_CODE: optionalString,
    WEBHOOK_SUBAGENT_CODE: optionalString,
    WEBHOOK_COMPANY_CODE: optionalString,
    REDIS_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    ),
    LOG_LEVEL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
  });

/**
 * Rules across variables, checked on the raw environment so they are reported together with the
 * per-variable problems (a zod refinement would only run once every variable parsed).
 */
function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (key: string) => env[key] !== undefined && env[key] !== '';
  const problems: string[] = [];
  if (set('UPSTREAM_BASE_URL')) {
    // A real upstream rejects every call without these, so starting without them would only
    // defer the failure to the first request.
    for (const key of ['UPSTREAM_API_KEY', 'UPSTREAM_PRODUCT_ID', 'UPSTREAM_USER_ID']) {
      if (!set(key)) problems.push(`${key} is required when UPSTREAM_BASE_URL is set`);
    }
  } else if (set('DIRECT_DEBIT_BASE_URL')) {
    problems.push('DIRECT_DEBIT_BASE_URL needs UPSTREAM_BASE_URL (the embedded sandbox serves direct debit itself)');
  }
  if (set('UPSTREAM_BASE_URL') && set('PUBLIC_URL') && set('WEBHOOK_API_KEY')) {
    // Subscribing the gateway to the bank's events needs the codes the subscription is filed under.
    for (const key of ['WEBHOOK_AGENT_CODE', 'WEBHOOK_SUBAGENT_CODE', 'WEBHOOK_COMPANY_CODE']) {
      if (!set(key)) problems.push(`${key} is required when PUBLIC_URL and WEBHOOK_API_KEY are set`);
    }
  }
  const credentials = ['UPSTREAM_CLIENT_KEY', 'UPSTREAM_CLIENT_SECRET', 'UPSTREAM_EMAIL'];
  const given = credentials.filter(set);
  if (given.length > 0 && given.length < credentials.length) {
    for (const key of credentials.filter((k) => !set(k))) {
      problems.push(`${key} is required with ${given.join(' and ')} (client credentials come as a set)`);
    }
  }
  return problems;
}

export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ClientCredentials {
  clientKey: string;
  clientSecret: string;
  email: string;
}

export interface UpstreamConfig {
  baseUrl: string;
  serviceSegment: string;
  directDebitBaseUrl: string;
  apiKey: string;
  productId: string;
  userId: string;
  /** Absent: the gateway cannot log in itself and callers must bring a bearer token. */
  credentials: ClientCredentials | undefined;
  /** x-client-id for the wallet and KYC endpoints; defaults to the client key. */
  clientId: string | undefined;
  timeoutMs: number;
  /** Upstream calls in flight at most (per base address); more queue. Default 50. */
  maxConcurrency?: number;
}

/** Webhook intake and the gateway's subscription to the bank's events. */
export interface WebhookConfig {
  /** The x-api-key the bank sends with each delivery; intake refuses everything without it. */
  apiKey: string | undefined;
  /** With it, deliveries must also carry a valid HMAC-SHA256 signature. */
  signingSecret: string | undefined;
  /** Where the bank reaches this gateway; with apiKey, the gateway subscribes itself at start-up. */
  publicUrl: string | undefined;
  maxBytes: number;
  agentCode: string | undefined;
  subagentCode: string | undefined;
  companyCode: string | undefined;
}

export interface Config {
  port: number;
  host: string;
  logLevel: LogLevel;
  /** Absent: run the embedded sandbox and point the upstream at it. */
  upstream: UpstreamConfig | undefined;
  sandbox: { port: number; latencyMs: number };
  upstreamTimeoutMs: number;
  upstreamMaxConcurrency: number;
  serviceSegment: string;
  webhooks: WebhookConfig;
  /** With it, events fan out and are deduplicated across gateway instances through Redis. */
  redisUrl: string | undefined;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const credentials =
    e.UPSTREAM_CLIENT_KEY && e.UPSTREAM_CLIENT_SECRET && e.UPSTREAM_EMAIL
      ? { clientKey: e.UPSTREAM_CLIENT_KEY, clientSecret: e.UPSTREAM_CLIENT_SECRET, email: e.UPSTREAM_EMAIL }
      : undefined;
  const upstream =
    e.UPSTREAM_BASE_URL && e.UPSTREAM_API_KEY && e.UPSTREAM_PRODUCT_ID && e.UPSTREAM_USER_ID
      ? {
          baseUrl: stripSlash(e.UPSTREAM_BASE_URL),
          serviceSegment: e.UPSTREAM_SERVICE_SEGMENT,
          directDebitBaseUrl: stripSlash(e.DIRECT_DEBIT_BASE_URL ?? e.UPSTREAM_BASE_URL),
          apiKey: e.UPSTREAM_API_KEY,
          productId: e.UPSTREAM_PRODUCT_ID,
          userId: e.UPSTREAM_USER_ID,
          credentials,
          clientId: e.UPSTREAM_CLIENT_ID ?? e.UPSTREAM_CLIENT_KEY,
          timeoutMs: e.UPSTREAM_TIMEOUT_MS,
          maxConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
        }
      : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    upstream,
    sandbox: { port: e.SANDBOX_PORT, latencyMs: e.SANDBOX_LATENCY_MS },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamMaxConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
    serviceSegment: e.UPSTREAM_SERVICE_SEGMENT,
    webhooks: {
      apiKey: e.WEBHOOK_API_KEY,
      signingSecret: e.WEBHOOK_SIGNING_SECRET,
      publicUrl: e.PUBLIC_URL ? stripSlash(e.PUBLIC_URL) : undefined,
      maxBytes: e.WEBHOOK_MAX_BYTES,
      agentCode: e.WEBHOOK_AGENT_CODE,
      subagentCode: e.WEBHOOK_SUBAGENT_CODE,
      companyCode: e.WEBHOOK_COMPANY_CODE,
    },
    redisUrl: e.REDIS_URL,
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
