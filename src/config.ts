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
const AUTH_MODES = ['none', 'passthrough', 'service'] as const;

/** `true`/`false` (also 1/0, yes/no, on/off); unset = the default, which may depend on NODE_ENV. */
const optionalFlag = z.preprocess(
  (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
    .optional(),
);
/** `name:sha256-hex` pairs: the gateway keeps only hashes of its callers' API keys. */
const apiKeyHashes = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((item) => item.trim()).filter(Boolean) : []),
  z.array(
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+:[0-9a-fA-F]{64}$/, { error: 'entries must be name:sha256-hex (see `npm run api-key`)' })
      .transform((entry) => {
        const [name, sha256] = entry.split(':') as [string, string];
        return { name, sha256: sha256.toLowerCase() };
      }),
  ),
);
const origins = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((item) => item.trim().replace(/\/+$/, '')).filter(Boolean) : []),
  z.array(z.string().regex(/^(\*|https?:\/\/[^/\s]+)$/, { error: 'entries must be origins like https://app.example.com (or *)' })),
);

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
    WEBHOOK_RECONCILE_INTERVAL_MS: intIn(1_000, 86_400_000, 60_000),
    // The event log that catch-up (`after`) reads: bounded by count and by age.
    EVENT_LOG_MAX_EVENTS: intIn(1, 1_000_000, 10_000),
    EVENT_LOG_MAX_AGE_MS: intIn(1_000, 30 * 86_400_000, 86_400_000),
    REDIS_URL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    ),
    LOG_LEVEL: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
    NODE_ENV: optionalString,
    // Who may call.
    AUTH_MODE: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(AUTH_MODES, { error: `must be one of ${AUTH_MODES.join(', ')}` }).optional(),
    ),
    GATEWAY_API_KEY_HASHES: apiKeyHashes,
    JWT_JWKS_URL: optionalUrl,
    JWT_ISSUER: optionalString,
    JWT_AUDIENCE: optionalString,
    ALLOWED_ORIGINS: origins,
    // What may be asked.
    INTROSPECTION: optionalFlag,
    GRAPHIQL: optionalFlag,
    TRUSTED_DOCUMENTS: optionalString,
    // Defaults: the shipped operations (schema/operations, bench, README) reach depth 7, cost 23,198
    // (src/security/operation-limits.ts), 199 tokens, no aliases or directives; test/limits.test.ts
    // checks they pass 3 levels under the depth and half the cost and tokens.
    MAX_DEPTH: intIn(1, 100, 12),
    MAX_COST: intIn(1, 1_000_000, 50_000),
    MAX_ALIASES: intIn(0, 1_000, 15),
    MAX_DIRECTIVES: intIn(0, 1_000, 10),
    MAX_TOKENS: intIn(10, 100_000, 2_000),
    MAX_BODY_BYTES: intIn(1_024, 10 * 1024 * 1024, 64 * 1024),
    // A failing bank.
    OPERATION_DEADLINE_MS: intIn(100, 600_000, 15_000),
    BREAKER_ERROR_RATE: z.preprocess(
      (v) => (v === '' || v === undefined ? 0.5 : v),
      z.coerce.number({ error: 'must be a number' }).gt(0, { error: 'must be above 0' }).max(1, { error: 'must be at most 1' }),
    ),
    BREAKER_MIN_CALLS: intIn(1, 100_000, 20),
    BREAKER_WINDOW_MS: intIn(1_000, 600_000, 10_000),
    BREAKER_OPEN_MS: intIn(100, 600_000, 30_000),
    SHUTDOWN_GRACE_MS: intIn(0, 600_000, 10_000),
    // Seeing it run.
    METRICS_TOKEN: optionalString,
  });

/** Every variable the gateway reads (.env.example and docs/configuration.md list each one). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

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
  return [...problems, ...callerAuthProblems(env, set)];
}

/**
 * The gateway holds the keys to a company's accounts: against a real upstream it refuses to start
 * unless callers must authenticate. `none` is for the embedded sandbox only.
 */
function callerAuthProblems(env: NodeJS.ProcessEnv, set: (key: string) => boolean): string[] {
  const problems: string[] = [];
  const mode = env.AUTH_MODE || undefined;
  const jwt = ['JWT_JWKS_URL', 'JWT_ISSUER', 'JWT_AUDIENCE'];
  const jwtGiven = jwt.filter(set);
  if (jwtGiven.length > 0 && jwtGiven.length < jwt.length) {
    for (const key of jwt.filter((k) => !set(k))) problems.push(`${key} is required with ${jwtGiven.join(' and ')} (JWTs are checked for issuer and audience)`);
  }
  if (set('UPSTREAM_BASE_URL')) {
    if (mode === undefined) problems.push('AUTH_MODE is required with a real upstream (passthrough or service)');
    if (mode === 'none') problems.push('AUTH_MODE none is allowed only with the embedded sandbox (leave UPSTREAM_BASE_URL unset)');
  }
  if (mode === 'service') {
    if (!set('GATEWAY_API_KEY_HASHES') && jwtGiven.length === 0) {
      problems.push('AUTH_MODE service needs GATEWAY_API_KEY_HASHES or JWT_JWKS_URL, JWT_ISSUER and JWT_AUDIENCE');
    }
    if (set('UPSTREAM_BASE_URL') && !set('UPSTREAM_CLIENT_KEY')) {
      problems.push('AUTH_MODE service needs UPSTREAM_CLIENT_KEY, UPSTREAM_CLIENT_SECRET and UPSTREAM_EMAIL (the gateway logs in itself)');
    }
  } else {
    // Keys or a JWKS with another mode would be ignored: the operator meant callers to authenticate.
    for (const key of ['GATEWAY_API_KEY_HASHES', ...jwtGiven].filter(set)) {
      problems.push(`${key} is used only with AUTH_MODE service (AUTH_MODE is ${mode ?? 'not set'})`);
    }
  }
  const names = (env.GATEWAY_API_KEY_HASHES ?? '').split(',').map((entry) => entry.trim().split(':')[0]).filter(Boolean);
  const repeated = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  if (repeated.length > 0) problems.push(`GATEWAY_API_KEY_HASHES names must be unique (they name callers in logs): ${repeated.join(', ')} repeated`);
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
  /** How often the gateway checks that its own webhook subscriptions are still filed at the bank. */
  reconcileIntervalMs: number;
}

/**
 * The log of published bank events that subscriptions resume from (`after`): Redis Streams with
 * Redis, memory without. Events older than `maxAgeMs`, or past the newest `maxEvents`, are dropped.
 */
export interface EventLogConfig {
  maxEvents: number;
  maxAgeMs: number;
}

export type AuthMode = (typeof AUTH_MODES)[number];

/** Who may call the gateway (HTTP, SSE and graphql-ws alike). */
export interface CallerAuthConfig {
  /**
   * `none`: anyone (embedded sandbox only); `passthrough`: callers bring an upstream token from
   * accessTokenCreate; `service`: callers present a gateway credential and the gateway calls the bank
   * with its own login.
   */
  mode: AuthMode;
  /** service: API keys, kept as SHA-256 hashes only, each with a name for logs and metrics. */
  apiKeys: { name: string; sha256: string }[];
  /** service: JWTs signed by a key of this JWKS, with this issuer and audience. */
  jwt: { jwksUrl: string; issuer: string; audience: string } | undefined;
  /** Browser origins allowed for CORS and WebSocket upgrades; `*` allows any. Empty: none. */
  allowedOrigins: string[];
  /** Passthrough: how long the bank's verdict on a caller's token is remembered (default 60 s; tests shorten it). */
  tokenCheckTtlMs?: number;
}

/** What may be asked: limits checked before execution. */
export interface QueryLimitsConfig {
  production: boolean;
  introspection: boolean;
  graphiql: boolean;
  /** Path of a persisted-documents manifest; with it, only those documents are executed. */
  trustedDocuments: string | undefined;
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxBodyBytes: number;
}

/** How the gateway survives a failing bank. */
export interface ResilienceConfig {
  /** Every operation ends by this long after it started, whatever the bank does. */
  operationDeadlineMs: number;
  breaker: BreakerConfig;
  /** On SIGTERM, in-flight operations get this long to finish. */
  shutdownGraceMs: number;
}

/** A circuit breaker per upstream family. */
export interface BreakerConfig {
  /** Opens when at least this share of the calls in the window failed (0..1]... */
  errorRate: number;
  /** ...and the window holds at least this many calls. */
  minCalls: number;
  windowMs: number;
  /** Stays open this long, then lets one probe through. */
  openMs: number;
}

/** The shipped manifest of trusted documents (`TRUSTED_DOCUMENTS=true`). */
export const SHIPPED_TRUSTED_DOCUMENTS = new URL('../schema/trusted-documents.json', import.meta.url).pathname;

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
  eventLog: EventLogConfig;
  auth: CallerAuthConfig;
  limits: QueryLimitsConfig;
  resilience: ResilienceConfig;
  /** With it, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
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
      reconcileIntervalMs: e.WEBHOOK_RECONCILE_INTERVAL_MS,
    },
    redisUrl: e.REDIS_URL,
    eventLog: eventLogFrom(e),
    auth: {
      mode: e.AUTH_MODE ?? 'none',
      apiKeys: e.GATEWAY_API_KEY_HASHES,
      jwt:
        e.JWT_JWKS_URL && e.JWT_ISSUER && e.JWT_AUDIENCE
          ? { jwksUrl: e.JWT_JWKS_URL, issuer: e.JWT_ISSUER, audience: e.JWT_AUDIENCE }
          : undefined,
      // With the embedded sandbox and no ALLOWED_ORIGINS, the example web app's dev server may call.
      allowedOrigins: allowedOriginsFrom(e),
    },
    limits: limitsFrom(e),
    resilience: resilienceFrom(e),
    metricsToken: e.METRICS_TOKEN,
  };
}

/** The origin `npm run example:web` serves the example app from (Vite's port, see examples/web). */
export const EXAMPLE_WEB_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

function allowedOriginsFrom(e: z.output<typeof envSchema>): string[] {
  if (e.ALLOWED_ORIGINS.length > 0 || e.UPSTREAM_BASE_URL !== undefined) return e.ALLOWED_ORIGINS;
  return EXAMPLE_WEB_ORIGINS;
}

/** Production turns introspection and GraphiQL off unless they are switched on explicitly. */
function limitsFrom(e: z.output<typeof envSchema>): QueryLimitsConfig {
  const production = e.NODE_ENV === 'production';
  const trusted = e.TRUSTED_DOCUMENTS?.toLowerCase();
  return {
    production,
    introspection: e.INTROSPECTION ?? !production,
    graphiql: e.GRAPHIQL ?? !production,
    trustedDocuments:
      trusted === undefined || ['false', '0', 'no', 'off'].includes(trusted)
        ? undefined
        : ['true', '1', 'yes', 'on'].includes(trusted)
          ? SHIPPED_TRUSTED_DOCUMENTS
          : e.TRUSTED_DOCUMENTS,
    maxDepth: e.MAX_DEPTH,
    maxCost: e.MAX_COST,
    maxAliases: e.MAX_ALIASES,
    maxDirectives: e.MAX_DIRECTIVES,
    maxTokens: e.MAX_TOKENS,
    maxBodyBytes: e.MAX_BODY_BYTES,
  };
}

/** Defaults for code that builds a gateway without the environment (tests, benchmark). */
export const DEFAULT_EVENT_LOG: EventLogConfig = eventLogFrom(envSchema.parse({}));

/** The event log's retention, from the parsed environment (the config and its defaults alike). */
function eventLogFrom(e: z.output<typeof envSchema>): EventLogConfig {
  return { maxEvents: e.EVENT_LOG_MAX_EVENTS, maxAgeMs: e.EVENT_LOG_MAX_AGE_MS };
}
export const DEFAULT_LIMITS: QueryLimitsConfig = limitsFrom(envSchema.parse({}));
export const DEFAULT_RESILIENCE: ResilienceConfig = resilienceFrom(envSchema.parse({}));

/** How the gateway survives a failing bank, from the parsed environment: one mapping for the config and its defaults. */
function resilienceFrom(e: z.output<typeof envSchema>): ResilienceConfig {
  return {
    operationDeadlineMs: e.OPERATION_DEADLINE_MS,
    breaker: { errorRate: e.BREAKER_ERROR_RATE, minCalls: e.BREAKER_MIN_CALLS, windowMs: e.BREAKER_WINDOW_MS, openMs: e.BREAKER_OPEN_MS },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
