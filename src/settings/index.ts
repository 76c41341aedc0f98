import {
  ConfigError,
  flag,
  flagOr,
  group,
  groupAs,
  httpUrl,
  int,
  list,
  oneOf,
  oneOfOr,
  setting,
  settingsReader,
  text,
  textOr,
  unsetIfEmpty,
  type GroupSettings,
} from '@banking-gateway/settings';
import { sandboxSettingsSchema } from '@banking-gateway/settings/sandbox';
import { z } from 'zod';
import {
  DEFAULT_JWT_CARDHOLDER_CLAIM,
  DEFAULT_JWT_PERMISSION_CLAIMS,
  DEFAULT_JWT_ROLE_CLAIMS,
  parseGrants,
  ROLE_NAMES,
  type Grants,
} from '../authorization/permissions.ts';

export { ConfigError };
export type { GroupMeta, SettingEntry } from '@banking-gateway/settings';

/**
 * The configuration: one nested zod schema (`configSchema`) is the only place that names an
 * environment variable, its default and its rule. `loadConfig` reads the environment into it and
 * reports every problem at once, so an operator fixes a deployment in one round trip rather than
 * one variable per restart. The schema's output is the configuration the gateway uses: a group
 * that the gateway reads differently from its variables is read into that shape by the schema
 * itself (`groupAs`), so each group has one shape and the rest of the code receives typed slices
 * of it. docs/configuration.md's tables and .env.example are generated from the schema
 * (`npm run config:docs`), and a test fails when they drift.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const AUTH_MODES = ['none', 'passthrough', 'service'] as const;
/** Which of the bank's answers are also parsed whole, beyond the fields read (src/upstream/contract-checks.ts). */
const CONTRACT_CHECK_MODES = ['all', 'sample', 'off'] as const;

const ROLES_TEXT = `roles: ${ROLE_NAMES.join(', ')}`;

/** `role+role`, or `cardholder@<cardholder id>`: the grants of an API key or a passthrough bank user (authorization/permissions.ts). */
function grantsIn(text: string, ctx: z.RefinementCtx, owner: string): Grants {
  const grants = parseGrants(text);
  if ('problem' in grants) {
    ctx.addIssue({ code: 'custom', message: `${owner}: ${grants.problem}` });
    return { roles: [], cardholderId: null };
  }
  return grants;
}

/** `name:sha256:roles`: a caller's API key by its hash, with what the caller may do. */
const apiKeyHash = z.string().transform((entry, ctx) => {
  const [name = '', sha256 = '', grants, ...rest] = entry.split(':');
  if (!/^[A-Za-z0-9._-]+$/.test(name) || !/^[0-9a-fA-F]{64}$/.test(sha256) || rest.length > 0) {
    ctx.addIssue({ code: 'custom', message: 'entries must be name:sha256-hex:roles (see `npm run api-key`)' });
    return z.NEVER;
  }
  if (grants === undefined || grants.trim() === '') {
    ctx.addIssue({
      code: 'custom',
      message: `the key "${name}" has no roles, so it could do nothing: write it ${name}:${sha256.slice(0, 8)}…:role+role (${ROLES_TEXT}; cardholder@<cardholder id> for a key bound to one cardholder), e.g. ${name}:…:viewer`,
    });
    return z.NEVER;
  }
  return { name, sha256: sha256.toLowerCase(), ...grantsIn(grants, ctx, `the key "${name}"`) };
});

/** `bank-user:roles`: what one bank user (the `sub` of its bank token) may do through a passthrough gateway. */
const bankUserGrants = z.string().transform((entry, ctx) => {
  const at = entry.lastIndexOf(':');
  if (at <= 0) {
    ctx.addIssue({ code: 'custom', message: 'entries must be bank-user:roles' });
    return z.NEVER;
  }
  const user = entry.slice(0, at);
  return { user, ...grantsIn(entry.slice(at + 1), ctx, `the bank user "${user}"`) };
});

/** Roles every passthrough bank user holds; no binding (one cardholder for every user makes no sense). */
const passthroughRoles = z
  .preprocess(unsetIfEmpty, z.string().default('admin'))
  .transform((text, ctx) => {
    const grants = grantsIn(text, ctx, 'PASSTHROUGH_ROLES');
    if (grants.cardholderId !== null)
      ctx.addIssue({
        code: 'custom',
        message: 'PASSTHROUGH_ROLES cannot bind every bank user to one cardholder: bind users one by one in PASSTHROUGH_USER_ROLES',
      });
    return grants.roles;
  })
  .meta({ rule: `role+role (${ROLES_TEXT})` });

/** The claims of a JWT that grant roles or permissions: claim names, these by default. */
function claimNames(defaults: readonly string[]) {
  const names = list(
    z.string().regex(/^[^\s,]+$/, { error: 'entries must be claim names' }),
    (item) => item,
    'claim names, comma-separated',
  );
  return z.preprocess((v) => (v === undefined || v === '' ? defaults.join(',') : v), names).meta({ rule: 'claim names, comma-separated' });
}

/** Where audit records go: stdout, a file (by its path), or nowhere. */
const AUDIT_DEFAULT_DESTINATION = 'stdout';
const auditDestination = z
  .preprocess(unsetIfEmpty, z.string().default(AUDIT_DEFAULT_DESTINATION))
  .transform((value): AuditDestinationSetting => (value === 'stdout' || value === 'off' ? { kind: value } : { kind: 'file', path: value }))
  .meta({ rule: '`stdout`, `off` or a file path' });

/** AUDIT_LOG, read: where audit records go besides the Redis Stream. */
type AuditDestinationSetting = { kind: 'stdout' } | { kind: 'off' } | { kind: 'file'; path: string };

/** OTEL_EXPORTER_OTLP_HEADERS as the OTLP exporter reads it (the OpenTelemetry SDK's format). */
const otlpHeaders = z
  .preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\s*[^\s=,]+\s*=[^,]*(,\s*[^\s=,]+\s*=[^,]*)*$/, { error: 'must be key=value pairs, comma-separated' })
      .optional(),
  )
  .meta({ rule: 'key=value pairs, comma-separated' });
const origin = z.string().regex(/^(\*|https?:\/\/[^/\s]+)$/, { error: 'entries must be origins like https://app.example.com (or *)' });

/** One Sentinel's address. */
interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * Where the gateway's Redis is, made once from the configuration and handed to every user
 * (platform/redis-options.ts connects to it): one address (`REDIS_URL`: a single Redis, or a managed endpoint
 * that fails over behind its own address; credentials and `rediss://` in it are honoured), or the
 * Sentinels that know the current primary of the group `name`.
 */
export type RedisTarget =
  | { url: string }
  | {
      sentinels: SentinelAddress[];
      /** The primary's group name, as the Sentinels know it. */
      name: string;
      /** Sentinel's own AUTH (`requirepass` in sentinel.conf). A secret: never logged. */
      sentinelPassword?: string | undefined;
      /** The primary's and replicas' AUTH. A secret: never logged. */
      password?: string | undefined;
    };

/** `host:port`, comma-separated: the Sentinels (REDIS_SENTINELS). */
const sentinelList = list(
  z.string().transform((entry, ctx): SentinelAddress => {
    const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not host:port (a host name or IP address, then a port 1 to 65535)` });
      return z.NEVER;
    }
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  }),
  (item) => item,
  'host:port entries, comma-separated',
);

/** The shipped manifest of trusted documents (`TRUSTED_DOCUMENTS=true`). */
export const SHIPPED_TRUSTED_DOCUMENTS = new URL('../../schema/trusted-documents.json', import.meta.url).pathname;

/** Path of a persisted-documents manifest (TRUSTED_DOCUMENTS: `true` for the shipped one, or a path); with it, only those documents are executed. */
function trustedManifestOf(setting: string | undefined): string | undefined {
  const trusted = setting?.toLowerCase();
  if (trusted === undefined || ['false', '0', 'no', 'off'].includes(trusted)) return undefined;
  return ['true', '1', 'yes', 'on'].includes(trusted) ? SHIPPED_TRUSTED_DOCUMENTS : setting;
}

/** The origin `npm run example:web` serves the example app from (Vite's port, see examples/web). */
const EXAMPLE_WEB_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/** The bank the gateway calls: where it is, who the gateway is to it, and how long one attempt may take. */
const bankSettings = {
  baseUrl: setting('UPSTREAM_BASE_URL', httpUrl(), "the bank's `{base_url}`; unset runs the embedded sandbox"),
  serviceSegment: setting(
    'UPSTREAM_SERVICE_SEGMENT',
    z
      .preprocess(
        unsetIfEmpty,
        z
          .string()
          .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be a single path segment (letters, digits, . _ -)' })
          .default('svc'),
      )
      .meta({ rule: 'one path segment: letters, digits, . _ -' }),
    "the service's own name, which the documents write as `svc` in paths",
  ),
  directDebitBaseUrl: setting('DIRECT_DEBIT_BASE_URL', httpUrl(), 'base of the direct debit API (Document 3)', 'the upstream base'),
  apiKey: setting('UPSTREAM_API_KEY', text(), '`x-api-key`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  productId: setting('UPSTREAM_PRODUCT_ID', text(), '`x-product-id`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  userId: setting('UPSTREAM_USER_ID', text(), '`x-user-id`; required with `UPSTREAM_BASE_URL`', "the sandbox's"),
  clientKey: setting(
    'UPSTREAM_CLIENT_KEY',
    text(),
    "client key for the gateway's own login (key, secret and e-mail come as a set)",
    "the sandbox's",
  ),
  clientSecret: setting('UPSTREAM_CLIENT_SECRET', text(), "client secret for the gateway's own login", "the sandbox's"),
  email: setting(
    'UPSTREAM_EMAIL',
    z.preprocess(unsetIfEmpty, z.email({ error: 'must be an e-mail address' }).optional()).meta({ rule: 'e-mail address' }),
    'e-mail of the API user',
    "the sandbox's",
  ),
  clientId: setting('UPSTREAM_CLIENT_ID', text(), '`x-client-id` of the wallet and KYC endpoints (Document 2, 4.3-4.4)', 'the client key'),
  timeoutMs: setting('UPSTREAM_TIMEOUT_MS', int(100, 300_000, 10_000), 'connect, headers and body timeout of one upstream attempt'),
  contractCheck: setting(
    'UPSTREAM_CONTRACT_CHECK',
    oneOfOr(CONTRACT_CHECK_MODES, 'sample'),
    'each answer is parsed field by field as the operation reads it; which answers are also checked whole for drift in fields nobody reads: `sample` (the first of each endpoint, then `UPSTREAM_CONTRACT_SAMPLE_PERCENT`, at least one a minute; a violation is counted and logged, and fails only the fields read), `all` (every answer; a violation anywhere fails the call, as tests run), `off`. See [operations.md](operations.md#contract-drift)',
  ),
  contractSamplePercent: setting(
    'UPSTREAM_CONTRACT_SAMPLE_PERCENT',
    z
      .preprocess(
        (v) => (v === '' || v === undefined ? 1 : v),
        z.coerce.number({ error: 'must be a number' }).min(0, { error: 'must be at least 0' }).max(100, { error: 'must be at most 100' }),
      )
      .meta({ rule: 'number, 0 to 100' }),
    "with `sample`: the share of each endpoint's answers checked whole besides the first and the one a minute, in percent",
  ),
};

/** How every call to the bank goes, and the configured bank; absent, the embedded sandbox is the bank (upstreamFor joins either with the calls' settings). */
function upstreamOf(u: GroupSettings<typeof bankSettings>) {
  const contractCheck = { mode: u.contractCheck, samplePercent: u.contractSamplePercent };
  return { serviceSegment: u.serviceSegment, timeoutMs: u.timeoutMs, contractCheck, bank: bankIdentityOf(u) };
}

/** The configured bank and who the gateway is to it; absent without UPSTREAM_BASE_URL. */
function bankIdentityOf(u: GroupSettings<typeof bankSettings>) {
  if (!(u.baseUrl && u.apiKey && u.productId && u.userId)) return undefined;
  return {
    baseUrl: u.baseUrl,
    directDebitBaseUrl: u.directDebitBaseUrl ?? u.baseUrl,
    apiKey: u.apiKey,
    productId: u.productId,
    userId: u.userId,
    /** Absent: the gateway cannot log in itself and callers must bring a bearer token. */
    credentials:
      u.clientKey && u.clientSecret && u.email ? { clientKey: u.clientKey, clientSecret: u.clientSecret, email: u.email } : undefined,
    /** x-client-id for the wallet and KYC endpoints; defaults to the client key. */
    clientId: u.clientId ?? u.clientKey,
  };
}

/** Who may call the gateway (HTTP, SSE and graphql-ws alike), and what each caller may do. */
const callerSettings = {
  mode: setting(
    'AUTH_MODE',
    oneOf(AUTH_MODES),
    '`none` (embedded sandbox only), `passthrough` or `service`; required with `UPSTREAM_BASE_URL`',
    '`none` (embedded sandbox only)',
  ),
  apiKeyHashes: setting(
    'GATEWAY_API_KEY_HASHES',
    list(apiKeyHash, (item) => item, 'name:sha256-hex:roles, comma-separated'),
    'service mode: API keys by hash, each with its roles (`role+role`, or `cardholder@<cardholder id>`); `npm run api-key -- <name> <roles>` prints an entry',
    'none',
  ),
  jwksUrl: setting('JWT_JWKS_URL', httpUrl(), 'service mode: JWTs are verified against this JWKS (the three JWT settings come as a set)'),
  jwtIssuer: setting('JWT_ISSUER', text(), 'service mode: the issuer JWTs must name'),
  jwtAudience: setting('JWT_AUDIENCE', text(), 'service mode: the audience JWTs must name'),
  jwtRoleClaims: setting(
    'JWT_ROLE_CLAIMS',
    claimNames(DEFAULT_JWT_ROLE_CLAIMS),
    "service mode: the JWT claims a caller's roles come from, and the only ones: each value (a space-separated string, or an array's items) names a role or a permission; other values are ignored and logged once",
    `\`${DEFAULT_JWT_ROLE_CLAIMS.join(',')}\``,
  ),
  jwtPermissionClaims: setting(
    'JWT_PERMISSION_CLAIMS',
    claimNames(DEFAULT_JWT_PERMISSION_CLAIMS),
    "service mode: the JWT claims that grant permissions only (OAuth's `scope` string, the `scp` array): each value names a permission; a role named there grants nothing and is logged once (see `JWT_PERMISSION_CLAIMS_GRANT_ROLES`), other values likewise",
    `\`${DEFAULT_JWT_PERMISSION_CLAIMS.join(',')}\``,
  ),
  jwtPermissionClaimsGrantRoles: setting(
    'JWT_PERMISSION_CLAIMS_GRANT_ROLES',
    flagOr(false),
    'service mode: `true` lets a role named in a permission claim grant it. The risk: an OAuth client allowed to request arbitrary scope strings (many identity providers allow it) could request `admin` and become admin; turn it on only if your identity provider issues no scope it has not been told to grant',
  ),
  jwtCardholderClaim: setting(
    'JWT_CARDHOLDER_CLAIM',
    z
      .preprocess(unsetIfEmpty, z.string().regex(/^\S+$/, { error: 'must be a claim name' }).default(DEFAULT_JWT_CARDHOLDER_CLAIM))
      .meta({ rule: 'claim name' }),
    "service mode: the JWT claim that binds the caller to one cardholder (the mobile card app): it then sees that cardholder's records only. Absent, the caller is bound to none; there but not one cardholder id (a string of letters, digits, . _ ~ -), the JWT is refused (401)",
  ),
  passthroughRoles: setting(
    'PASSTHROUGH_ROLES',
    passthroughRoles,
    'passthrough mode: the roles of every bank user; `admin` adds no restriction to what the bank allows the token',
  ),
  passthroughUserRoles: setting(
    'PASSTHROUGH_USER_ROLES',
    list(bankUserGrants, (item) => item, 'bank-user:roles, comma-separated'),
    'passthrough mode: roles of one bank user (the `sub` of its bank token) instead of `PASSTHROUGH_ROLES`; `user:cardholder@<cardholder id>` binds it to one cardholder',
    'none',
  ),
  allowedOrigins: setting(
    'ALLOWED_ORIGINS',
    list(origin, (item) => item.replace(/\/+$/, ''), 'origins, comma-separated, or *'),
    'browser origins allowed for CORS and WebSocket upgrades',
    'none (embedded sandbox: `http://localhost:5173` and `http://127.0.0.1:5173`, the example web app)',
  ),
};

/** The settings of one mode, together: the JWT trio as one verifier's, passthrough's roles only in passthrough mode. */
function callerAuthOf(a: GroupSettings<typeof callerSettings>) {
  return {
    /**
     * `none`: anyone, with every permission (embedded sandbox only); `passthrough`: callers bring an
     * upstream token from accessTokenCreate; `service`: callers present a gateway credential and the
     * gateway calls the bank with its own login.
     */
    mode: a.mode ?? 'none',
    /** service: API keys, kept as SHA-256 hashes only, each with a name for logs and metrics and its roles. */
    apiKeys: a.apiKeyHashes,
    /** service: JWTs signed by a key of this JWKS, with this issuer and audience. */
    jwt:
      a.jwksUrl && a.jwtIssuer && a.jwtAudience
        ? {
            jwksUrl: a.jwksUrl,
            issuer: a.jwtIssuer,
            audience: a.jwtAudience,
            roleClaims: a.jwtRoleClaims,
            permissionClaims: a.jwtPermissionClaims,
            permissionClaimsGrantRoles: a.jwtPermissionClaimsGrantRoles,
            cardholderClaim: a.jwtCardholderClaim,
          }
        : undefined,
    /** passthrough: what bank users may do through the gateway; absent: everything the bank allows them (role admin). */
    passthrough: a.mode === 'passthrough' ? { roles: a.passthroughRoles, users: a.passthroughUserRoles } : undefined,
    /** Browser origins allowed for CORS and WebSocket upgrades; `*` allows any. Empty: none. */
    allowedOrigins: a.allowedOrigins,
  };
}

/** Every group, each in the shape the gateway uses, before the defaults that depend on another group. */
const settingGroups = z.object({
  server: group('The gateway', 'Where it listens and how it logs.', {
    port: setting('PORT', int(0, 65535, 4000), 'HTTP port of the gateway (GraphQL, graphql-ws, health)'),
    host: setting('HOST', textOr('0.0.0.0'), 'interface to listen on'),
    logLevel: setting(
      'LOG_LEVEL',
      oneOfOr(LOG_LEVELS, 'info'),
      'pino, JSON lines (human-readable on a terminal); tokens and secrets redacted',
    ),
    nodeEnv: setting('NODE_ENV', text(), '`production` hides limits and suggestions and turns introspection and GraphiQL off'),
  }),
  upstream: groupAs(
    'The bank',
    'Unset `UPSTREAM_BASE_URL` runs the embedded sandbox, and the gateway logs in to it with its demo credentials.',
    bankSettings,
    upstreamOf,
  ),
  concurrency: group(
    'Calls in flight to the bank',
    'The documents give no limit, so the gateway learns one per bank host: it starts at `UPSTREAM_INITIAL_CONCURRENCY`, raises the limit while the bank answers at its usual speed and the limit is what holds calls back, and lowers it when latency climbs past 3x its floor or the bank answers 429, 503 or times out. Calls over the limit wait in a fair queue: clients take turns, and an operation under way goes before new ones. While another client is active, one client holds at most its share of the limit. See [operations.md](operations.md#calls-in-flight-to-the-bank) and [fair share per client](operations.md#fair-share-per-client).',
    {
      initial: setting(
        'UPSTREAM_INITIAL_CONCURRENCY',
        int(1, 10_000, 50),
        'the limit each bank host starts from (and keeps, with adaptation off)',
      ),
      min: setting('UPSTREAM_MIN_CONCURRENCY', int(1, 10_000, 4), 'the least the limit falls to however hard the bank pushes back'),
      max: setting('UPSTREAM_MAX_CONCURRENCY', int(1, 10_000, 96), 'the most the limit rises to; also the most connections per host'),
      adaptive: setting(
        'UPSTREAM_ADAPTIVE_CONCURRENCY',
        flagOr(true),
        "learn the limit from the bank's latency and pushback; `false` keeps the initial limit",
      ),
      perClient: setting(
        'CLIENT_MAX_UPSTREAM_IN_FLIGHT',
        int(0, 10_000, 0),
        'the most calls one client may have in flight to a bank host; its others wait for its own calls to end (within the operation deadline), however many slots are free. `0`: no cap of its own (its share, below, still applies)',
        '`0` (off)',
      ),
      sharePercent: setting(
        'CLIENT_MAX_SHARE_PERCENT',
        int(1, 100, 50),
        "while another client has calls in flight or waiting (or sent one in the last second), the most one client may hold of a bank host's limit, in percent; its other calls wait for its own to end, so a flooding client leaves room for the rest. A client alone may fill the limit. `100`: no share, turns only",
      ),
    },
  ),
  clientRateLimit: group(
    'Operations per client',
    "A client (API key name, JWT subject, the bank user behind a passthrough token, or an anonymous caller's remote address) may start this many operations per window; the next is refused before execution with `RATE_LIMITED` (HTTP 429 and `Retry-After`). Counted in Redis with `REDIS_URL`, so the limit spans every instance. Off by default. See [operations.md](operations.md#fair-share-per-client).",
    {
      operations: setting(
        'CLIENT_RATE_LIMIT_OPERATIONS',
        int(0, 1_000_000, 0),
        'operations (queries, mutations, subscriptions started) one client may start per window; `0`: no limit',
        '`0` (off)',
      ),
      windowSeconds: setting(
        'CLIENT_RATE_LIMIT_WINDOW_SECONDS',
        int(1, 86_400, 60),
        "the window they are counted in: fixed, from the client's first operation in it",
      ),
    },
  ),
  cache: group(
    'Caching bank reads',
    "Bank reads are kept per bank user (the gateway's own login, or each caller's token) and dropped, for every user and every instance, by each bank event and each write that touches their kind of record; the TTLs only bound what nothing announces. The table of what is kept and what drops it: [operations.md](operations.md#caching-bank-reads).",
    {
      enabled: setting('UPSTREAM_CACHE', flagOr(true), 'keep bank reads per bank user; `false` sends every read to the bank'),
      recordsTtlMs: setting(
        'UPSTREAM_CACHE_RECORDS_TTL_MS',
        int(0, 86_400_000, 30_000),
        'how long a record (accounts, balances, cards, payouts...) is kept when no event or write says it changed; 0 keeps none',
      ),
      ratesTtlMs: setting(
        'UPSTREAM_CACHE_RATES_TTL_MS',
        int(0, 86_400_000, 5_000),
        'FX rates and quote details, which move with the market and no event announces; 0 keeps none',
      ),
      referenceTtlMs: setting(
        'UPSTREAM_CACHE_REFERENCE_TTL_MS',
        int(0, 86_400_000, 3_600_000),
        "the bank's reference data (the beneficiary schema); 0 keeps none",
      ),
      maxEntries: setting(
        'UPSTREAM_CACHE_MAX_ENTRIES',
        int(100, 10_000_000, 20_000),
        'the most answers kept; the least recently used go first',
      ),
    },
  ),
  liveQueries: group(
    'Live queries',
    'Queries sent with `@live`: re-run when a bank event or a write touches what they read, and pushed whole when their result changed. See [operations.md](operations.md#live-queries).',
    {
      throttleMs: setting(
        'LIVE_QUERY_THROTTLE_MS',
        int(0, 60_000, 250),
        'the least time between two pushes of one live query: a burst of events in it is one re-run; a client may ask for more with `@live(throttle:)`, never less',
      ),
      maxPerCaller: setting(
        'LIVE_QUERY_MAX_PER_CALLER',
        int(1, 100_000, 100),
        'live queries one caller (API key, JWT subject, bank user, or anonymous address) may hold open on one instance; the next ends with `LIVE_QUERY_LIMIT`',
      ),
      maxPerConnection: setting(
        'LIVE_QUERY_MAX_PER_CONNECTION',
        int(1, 10_000, 25),
        'live queries one connection (a WebSocket, or an HTTP connection) may hold open; the next ends with `LIVE_QUERY_LIMIT`',
      ),
    },
  ),
  sandbox: sandboxSettingsSchema,
  auth: groupAs(
    'Who may call',
    "An entry written twice in any of these (a key's name or hash, a bank user, a role in one entry, a claim, an origin) stops the start, named: the gateway would otherwise keep one of them silently. See [operations.md](operations.md#who-may-call-auth_mode) and [permissions.md](permissions.md).",
    callerSettings,
    callerAuthOf,
  ),
  audit: group(
    'The audit trail',
    'One JSON line per mutation attempt, allowed or refused: who, what, on which records, how it ended. See [operations.md](operations.md#the-audit-trail).',
    {
      destination: setting(
        'AUDIT_LOG',
        auditDestination,
        'where audit records go: `stdout` (its own JSON lines, beside the log), a file path (appended), or `off`',
        // The schema reads the default into a destination: the docs say it in words.
        `\`${AUDIT_DEFAULT_DESTINATION}\``,
      ),
      redisMaxLen: setting(
        'AUDIT_REDIS_STREAM_MAX_LEN',
        int(1_000, 100_000_000, 1_000_000),
        'with `REDIS_URL`, every record also goes to the Redis Stream `audit`, shared by every instance and capped near this many records',
      ),
    },
  ),
  limits: groupAs(
    'What may be asked',
    'Limits checked before execution. The operations the project ships stay well inside the defaults: test/limits.test.ts runs every one of them against tighter limits.',
    {
      introspection: setting('INTROSPECTION', flag(), 'schema introspection', 'on, off in production'),
      graphiql: setting('GRAPHIQL', flag(), 'GraphiQL on GET /graphql', 'on, off in production'),
      trustedDocuments: setting(
        'TRUSTED_DOCUMENTS',
        text(),
        "`true` (the shipped manifest) or a manifest's path: only those documents run",
        'off',
      ),
      maxDepth: setting('MAX_DEPTH', int(1, 100, 12), 'deepest selection'),
      maxCost: setting('MAX_COST', int(1, 1_000_000, 50_000), 'highest cost (src/limits/operation-limits.ts)'),
      maxAliases: setting('MAX_ALIASES', int(0, 1_000, 15), 'most aliases'),
      maxDirectives: setting('MAX_DIRECTIVES', int(0, 1_000, 10), 'most directives'),
      maxTokens: setting('MAX_TOKENS', int(10, 100_000, 2_000), 'most tokens in a document'),
      maxBodyBytes: setting('MAX_BODY_BYTES', int(1_024, 10 * 1024 * 1024, 64 * 1024), 'largest request body and graphql-ws message'),
      subscriptionMaxPerCaller: setting(
        'SUBSCRIPTION_MAX_PER_CALLER',
        int(1, 1_000_000, 10_000),
        'subscriptions one caller (API key, JWT subject, bank user, or anonymous address) may hold open on one instance; the next is refused with `SUBSCRIPTION_LIMIT`',
      ),
      subscriptionMaxPerConnection: setting(
        'SUBSCRIPTION_MAX_PER_CONNECTION',
        int(1, 100_000, 100),
        'subscriptions one connection (a WebSocket) may hold open; the next is refused with `SUBSCRIPTION_LIMIT`',
      ),
      clientRequestTimeoutMs: setting(
        'CLIENT_REQUEST_TIMEOUT_MS',
        int(1_000, 600_000, 30_000),
        'a client has this long to send a whole request, headers and body; then its connection is closed with 408 (a slow or stalled client holds a connection). The answer, a stream or a WebSocket after it are not bounded by it',
      ),
      // The gateway needs the manifest's path, whichever way TRUSTED_DOCUMENTS names it.
    },
    ({ trustedDocuments, ...limits }) => ({ ...limits, trustedDocuments: trustedManifestOf(trustedDocuments) }),
  ),
  federation: group(
    'In a supergraph',
    'The gateway as an Apollo Federation 2 subgraph behind a router (Apollo Router, Hive Gateway). See [federation.md](federation.md).',
    {
      subgraph: setting(
        'FEDERATION_SUBGRAPH',
        flagOr(false),
        "serve the graph as a Federation 2 subgraph: its entities' keys, `_entities` and `_service` (schema/subgraph.graphql); off, the graph is schema/schema.graphql",
      ),
      routerToken: setting(
        'FEDERATION_ROUTER_TOKEN',
        text(),
        'the secret your router sends as `x-router-token`: only requests carrying it may use `_entities` and `_service`, and with `TRUSTED_DOCUMENTS` they may send the query plans the router makes; required with `FEDERATION_SUBGRAPH` and a real bank or `TRUSTED_DOCUMENTS`; never logged',
        'unset (embedded sandbox: anyone may)',
      ),
    },
  ),
  resilience: group('A failing bank', 'See [operations.md](operations.md).', {
    operationDeadlineMs: setting(
      'OPERATION_DEADLINE_MS',
      int(100, 600_000, 15_000),
      'every query or mutation ends by then, whatever the bank does',
    ),
    breaker: z.object({
      errorRate: setting(
        'BREAKER_ERROR_RATE',
        z
          .preprocess(
            (v) => (v === '' || v === undefined ? 0.5 : v),
            z.coerce.number({ error: 'must be a number' }).gt(0, { error: 'must be above 0' }).max(1, { error: 'must be at most 1' }),
          )
          .meta({ rule: 'number, above 0, at most 1' }),
        "a family's circuit breaker opens when at least this share of its calls in the window failed...",
      ),
      minCalls: setting('BREAKER_MIN_CALLS', int(1, 100_000, 20), '...and the window holds at least this many calls'),
      windowMs: setting('BREAKER_WINDOW_MS', int(1_000, 600_000, 10_000), 'the window the breaker counts calls in'),
      openMs: setting('BREAKER_OPEN_MS', int(100, 600_000, 30_000), 'how long the breaker stays open before one probe goes through'),
    }),
    shutdownGraceMs: setting('SHUTDOWN_GRACE_MS', int(0, 600_000, 10_000), 'how long in-flight operations may finish after SIGTERM'),
  }),
  webhooks: group('Bank events in', "Webhook intake and the gateway's own webhook subscriptions at the bank.", {
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
  }),
  events: groupAs(
    'Live updates out',
    'The event log subscriptions resume from (`after`), and Redis to share it across instances: one address (`REDIS_URL`) or Sentinels (`REDIS_SENTINELS`), never both. See [deployment.md](deployment.md#redis-with-sentinel).',
    {
      redisUrl: setting(
        'REDIS_URL',
        z
          .preprocess(unsetIfEmpty, z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional())
          .meta({ rule: 'redis:// or rediss:// URL' }),
        'one Redis (or a managed endpoint) for the shared event log, fan-out and de-duplication across instances, cache invalidation, the operations per client, persisted queries, card freezes and the audit stream; credentials (`redis://user:password@host`) and TLS (`rediss://`) in it are used',
      ),
      sentinels: setting(
        'REDIS_SENTINELS',
        sentinelList,
        'the Sentinels that know the current Redis primary, instead of `REDIS_URL`: every Redis user follows a failover to the new primary',
        'unset',
      ),
      sentinelName: setting(
        'REDIS_SENTINEL_NAME',
        text(),
        "the primary's group name as the Sentinels know it (`sentinel monitor <name> ...`); required with `REDIS_SENTINELS`",
      ),
      sentinelPassword: setting(
        'REDIS_SENTINEL_PASSWORD',
        text(),
        "the Sentinels' own password (`requirepass` in sentinel.conf), with `REDIS_SENTINELS`; never logged",
      ),
      password: setting(
        'REDIS_PASSWORD',
        text(),
        "the primary's and replicas' password with `REDIS_SENTINELS` (with `REDIS_URL` it goes in the URL); never logged",
      ),
      minReplicasAck: setting(
        'REDIS_MIN_REPLICAS_ACK',
        z
          .preprocess(
            unsetIfEmpty,
            z.coerce
              .number({ error: 'must be a number' })
              .int({ error: 'must be an integer' })
              .min(0, { error: 'must be at least 0' })
              .max(16, { error: 'must be at most 16' })
              .optional(),
          )
          .meta({ rule: 'integer, 0 to 16' }),
        'a bank event is answered 202 only once this many replicas hold it (Redis `WAIT`); otherwise 503 with Retry-After, and the bank redelivers',
        '1 with `REDIS_SENTINELS`, 0 with `REDIS_URL`',
      ),
      replicaAckTimeoutMs: setting(
        'REDIS_REPLICA_ACK_TIMEOUT_MS',
        int(10, 5_000, 500),
        'how long an event waits for those replicas before it is answered 503',
      ),
      maxEvents: setting('EVENT_LOG_MAX_EVENTS', int(1, 1_000_000, 10_000), 'events kept for catch-up (`after`)'),
      maxAgeMs: setting('EVENT_LOG_MAX_AGE_MS', int(1_000, 30 * 86_400_000, 86_400_000), 'events older than this are dropped from the log'),
    },
    // The log's retention goes to the event bus on its own, with or without Redis.
    ({ redisUrl, sentinels, sentinelName, sentinelPassword, password, minReplicasAck, replicaAckTimeoutMs, ...log }) => {
      const redis: RedisTarget | undefined =
        sentinels.length > 0
          ? { sentinels, name: sentinelName ?? '', sentinelPassword, password }
          : redisUrl
            ? { url: redisUrl }
            : undefined;
      const durability: EventDurability = { minReplicasAck: minReplicasAck ?? (sentinels.length > 0 ? 1 : 0), replicaAckTimeoutMs };
      return { redis, durability, log };
    },
  ),
  metrics: group('Seeing it run', 'See [operations.md](operations.md).', {
    token: setting('METRICS_TOKEN', text(), 'with it, `/metrics` needs `Authorization: Bearer <token>`'),
  }),
  tracing: groupAs(
    'Tracing',
    "OpenTelemetry traces, exported over OTLP/HTTP with JSON bodies; off, at no cost, unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set. The standard variables, so a collector sidecar's settings apply as they are. See [operations.md](operations.md#tracing).",
    {
      endpoint: setting(
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        httpUrl(),
        "the collector's OTLP/HTTP base address: spans go to `<endpoint>/v1/traces`",
        'unset: tracing off',
      ),
      serviceName: setting('OTEL_SERVICE_NAME', textOr('banking-gateway'), '`service.name` of the exported spans'),
      headers: setting(
        'OTEL_EXPORTER_OTLP_HEADERS',
        otlpHeaders,
        "headers of each export, such as a collector's API key (read by the exporter itself)",
        'none',
      ),
    },
    // Absent: tracing is off. The exporter reads its headers from the environment itself.
    ({ endpoint, serviceName }) => (endpoint ? { endpoint, serviceName } : undefined),
  ),
});

/** The configuration as the gateway uses it: every group in its one shape, with the defaults that depend on another group resolved. */
export const configSchema = settingGroups.transform((groups) => {
  const production = groups.server.nodeEnv === 'production';
  return {
    ...groups,
    // With the embedded sandbox and no ALLOWED_ORIGINS, the example web app's dev server may call.
    auth: {
      ...groups.auth,
      allowedOrigins: groups.auth.allowedOrigins.length > 0 || groups.upstream.bank ? groups.auth.allowedOrigins : EXAMPLE_WEB_ORIGINS,
    },
    // Production turns introspection and GraphiQL off unless they are switched on explicitly.
    limits: {
      ...groups.limits,
      production,
      introspection: groups.limits.introspection ?? !production,
      graphiql: groups.limits.graphiql ?? !production,
    },
  };
});

export type Config = z.output<typeof configSchema>;

const reader = settingsReader(configSchema);

/** Every setting in schema order, each with its path (`resilience.breaker.minCalls`). */
export const SETTINGS = reader.entries;

/** Every variable the gateway and `npm run sandbox` read. */
export const CONFIG_VARIABLES: readonly string[] = SETTINGS.map((entry) => entry.meta.env);

const variable = reader.variable;

/**
 * Rules across settings, checked on the raw input so they are reported together with the
 * per-setting problems (a refinement would only run once every setting parsed).
 */
function crossSettingProblems(env: NodeJS.ProcessEnv): string[] {
  const set = (path: string) => {
    const value = env[variable(path)];
    return value !== undefined && value !== '';
  };
  const problems: string[] = [];
  const requiredWith = (paths: string[], because: string) => {
    for (const path of paths.filter((p) => !set(p))) problems.push(`${variable(path)} is required ${because}`);
  };
  if (set('upstream.baseUrl')) {
    // A real upstream rejects every call without these, so starting without them would only
    // defer the failure to the first request.
    requiredWith(['upstream.apiKey', 'upstream.productId', 'upstream.userId'], `when ${variable('upstream.baseUrl')} is set`);
  } else if (set('upstream.directDebitBaseUrl')) {
    problems.push(
      `${variable('upstream.directDebitBaseUrl')} needs ${variable('upstream.baseUrl')} (the embedded sandbox serves direct debit itself)`,
    );
  }
  if (set('upstream.baseUrl') && set('webhooks.publicUrl') && set('webhooks.apiKey')) {
    // Subscribing the gateway to the bank's events needs the codes the subscription is filed under.
    requiredWith(
      ['webhooks.agentCode', 'webhooks.subagentCode', 'webhooks.companyCode'],
      `when ${variable('webhooks.publicUrl')} and ${variable('webhooks.apiKey')} are set`,
    );
  }
  const credentials = ['upstream.clientKey', 'upstream.clientSecret', 'upstream.email'];
  const given = credentials.filter(set);
  if (given.length > 0) requiredWith(credentials, `with ${given.map(variable).join(' and ')} (client credentials come as a set)`);
  return [
    ...problems,
    ...callerAuthProblems(env, set),
    ...redisProblems(env, set),
    ...federationProblems(env, set),
    ...retiredVariableProblems(env),
    ...repeatedEntryProblems(env),
  ];
}

/**
 * A subgraph's own doors (`_entities`, `_service`) and its exemption from the trusted documents
 * (a router sends query plans, not the clients' documents) belong to the router alone: with a real
 * bank or trusted documents, the start stops until the router's secret says which requests are its.
 */
function federationProblems(env: NodeJS.ProcessEnv, set: (path: string) => boolean): string[] {
  const [SUBGRAPH, TOKEN] = [variable('federation.subgraph'), variable('federation.routerToken')];
  const subgraph = /^(true|1|yes|on)$/i.test(env[SUBGRAPH] ?? '');
  if (!subgraph) return set('federation.routerToken') ? [`${TOKEN} is used only with ${SUBGRAPH}=true`] : [];
  if (set('federation.routerToken')) return [];
  const why = [
    set('upstream.baseUrl') ? variable('upstream.baseUrl') : undefined,
    set('limits.trustedDocuments') ? variable('limits.trustedDocuments') : undefined,
  ].filter(Boolean);
  return why.length > 0
    ? [`${TOKEN} is required with ${SUBGRAPH}=true and ${why.join(' and ')}: only your router may use _entities and _service`]
    : [];
}

/**
 * One way to reach Redis: an address, or Sentinels. Both set would leave the operator guessing which
 * one the gateway follows in a failover, so the start stops; Sentinel settings without Sentinels
 * would be ignored, so they stop it too.
 */
function redisProblems(env: NodeJS.ProcessEnv, set: (path: string) => boolean): string[] {
  const [URL_, SENTINELS] = [variable('events.redisUrl'), variable('events.sentinels')];
  const entries = (env[SENTINELS] ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (!set('events.sentinels')) {
    return ['events.sentinelName', 'events.sentinelPassword', 'events.password']
      .filter(set)
      .map((path) => `${variable(path)} is used only with ${SENTINELS} (with ${URL_}, credentials go in the URL)`);
  }
  return [
    ...(set('events.redisUrl')
      ? [
          `${URL_} and ${SENTINELS} are both set: give one (${SENTINELS} for Redis with Sentinel, ${URL_} for one Redis or a managed endpoint)`,
        ]
      : []),
    ...(set('events.sentinelName')
      ? []
      : [`${variable('events.sentinelName')} is required with ${SENTINELS} (the name in \`sentinel monitor <name> ...\`)`]),
    ...repeats(entries, (entry) => entry).map((entry) => `${SENTINELS} names the Sentinel "${entry}" twice`),
  ];
}

/**
 * The gateway holds the keys to a company's accounts: against a real upstream it refuses to start
 * unless callers must authenticate. `none` is for the embedded sandbox only.
 */
function callerAuthProblems(env: NodeJS.ProcessEnv, set: (path: string) => boolean): string[] {
  const problems: string[] = [];
  const [MODE, HASHES, BASE] = [variable('auth.mode'), variable('auth.apiKeyHashes'), variable('upstream.baseUrl')];
  const mode = env[MODE] || undefined;
  const jwt = ['auth.jwksUrl', 'auth.jwtIssuer', 'auth.jwtAudience'];
  const jwtGiven = jwt.filter(set);
  if (jwtGiven.length > 0 && jwtGiven.length < jwt.length) {
    for (const path of jwt.filter((p) => !set(p))) {
      problems.push(
        `${variable(path)} is required with ${jwtGiven.map(variable).join(' and ')} (JWTs are checked for issuer and audience)`,
      );
    }
  }
  if (set('upstream.baseUrl')) {
    if (mode === undefined) problems.push(`${MODE} is required with a real upstream (passthrough or service)`);
    if (mode === 'none') problems.push(`${MODE} none is allowed only with the embedded sandbox (leave ${BASE} unset)`);
  }
  if (mode === 'service') {
    if (!set('auth.apiKeyHashes') && jwtGiven.length === 0)
      problems.push(
        `${MODE} service needs ${HASHES} or ${jwt
          .map(variable)
          .join(', ')
          .replace(/, ([^,]+)$/, ' and $1')}`,
      );
    if (set('upstream.baseUrl') && !set('upstream.clientKey')) {
      const login = ['upstream.clientKey', 'upstream.clientSecret', 'upstream.email'].map(variable);
      problems.push(`${MODE} service needs ${login[0]}, ${login[1]} and ${login[2]} (the gateway logs in itself)`);
    }
    if (jwtGiven.length === 0) {
      // Claim settings without a JWKS would be ignored: the operator meant JWTs to be accepted.
      for (const path of JWT_CLAIM_SETTINGS.filter(set))
        problems.push(
          `${variable(path)} is used only with ${jwt
            .map(variable)
            .join(', ')
            .replace(/, ([^,]+)$/, ' and $1')} (no JWT is accepted without them)`,
        );
    }
  } else {
    // Keys or a JWKS with another mode would be ignored: the operator meant callers to authenticate.
    for (const path of ['auth.apiKeyHashes', ...jwtGiven, ...JWT_CLAIM_SETTINGS].filter(set)) {
      problems.push(`${variable(path)} is used only with ${MODE} service (${MODE} is ${mode ?? 'not set'})`);
    }
  }
  if (mode !== 'passthrough') {
    // Roles for bank users would be ignored: the operator meant to restrict them.
    for (const path of ['auth.passthroughRoles', 'auth.passthroughUserRoles'].filter(set)) {
      problems.push(`${variable(path)} is used only with ${MODE} passthrough (${MODE} is ${mode ?? 'not set'})`);
    }
  }
  return problems;
}

const JWT_CLAIM_SETTINGS = [
  'auth.jwtRoleClaims',
  'auth.jwtPermissionClaims',
  'auth.jwtPermissionClaimsGrantRoles',
  'auth.jwtCardholderClaim',
];

/**
 * Variables the gateway no longer reads, with what replaced them: set, they stop the start rather
 * than be ignored, since the operator meant them to do something. JWT_ACCESS_CLAIMS let `scope`
 * grant roles; its claims cannot be split into role and permission claims on the operator's behalf.
 */
const RETIRED_VARIABLES: Record<string, string> = {
  JWT_ACCESS_CLAIMS:
    'name the claims that grant roles in JWT_ROLE_CLAIMS (default roles) and those that grant permissions in JWT_PERMISSION_CLAIMS (default scope,scp); a role named in a permission claim grants nothing unless JWT_PERMISSION_CLAIMS_GRANT_ROLES=true',
};

function retiredVariableProblems(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(RETIRED_VARIABLES)
    .filter(([name]) => env[name] !== undefined && env[name] !== '')
    .map(([name, instead]) => `${name} is no longer read: ${instead}`);
}

/**
 * An entry written twice in the access configuration: the gateway would keep one of them silently
 * (the last user's roles, one of two names for a key), so the start stops and names it. Read from
 * the raw lists, so a repeat is reported beside a malformed entry.
 */
function repeatedEntryProblems(env: NodeJS.ProcessEnv): string[] {
  const entriesOf = (path: string) =>
    (env[variable(path)] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const twice = (
    path: string,
    what: string,
    keyOf: (entry: string) => string | undefined,
    shown: (entry: string) => string | undefined = keyOf,
  ) => repeats(entriesOf(path), keyOf).map((entry) => `${variable(path)} names the ${what} "${shown(entry)}" twice`);
  const origin = (entry: string) => entry.replace(/\/+$/, '');
  return [
    ...twice('auth.apiKeyHashes', 'key', (entry) => entry.split(':')[0]!),
    ...sameKeyHashProblems(entriesOf('auth.apiKeyHashes')),
    ...twice('auth.passthroughUserRoles', 'bank user', (entry) =>
      entry.lastIndexOf(':') > 0 ? entry.slice(0, entry.lastIndexOf(':')) : undefined,
    ),
    ...twice('auth.jwtRoleClaims', 'claim', (entry) => entry),
    ...twice('auth.jwtPermissionClaims', 'claim', (entry) => entry),
    // Origins compare without case (a browser sends its scheme and host in lower case).
    ...twice('auth.allowedOrigins', 'origin', (entry) => origin(entry).toLowerCase(), origin),
  ];
}

/** The entries whose key an earlier entry already had (an entry without one is malformed: reported as such). */
function repeats(entries: string[], keyOf: (entry: string) => string | undefined): string[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = keyOf(entry);
    if (key === undefined) return false;
    const repeated = seen.has(key);
    seen.add(key);
    return repeated;
  });
}

/** Two names for one key: the caller would act under whichever the matcher meets first. */
function sameKeyHashProblems(entries: string[]): string[] {
  const namesByHash = new Map<string, string[]>();
  for (const [name = '', hash = ''] of entries.map((entry) => entry.split(':'))) {
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) continue;
    namesByHash.set(hash.toLowerCase(), [...(namesByHash.get(hash.toLowerCase()) ?? []), name]);
  }
  return [...namesByHash.values()]
    .filter((names) => names.length > 1)
    .map(
      (names) =>
        `${variable('auth.apiKeyHashes')} gives the keys ${names.map((n) => `"${n}"`).join(' and ')} the same hash: one key is one caller`,
    );
}

/** A claim in two roles at once: a role claim that is also a permission claim, or the cardholder claim in either. */
function jwtClaimProblems(jwt: Config['auth']['jwt']): string[] {
  if (!jwt) return [];
  const [ROLE, PERMISSION] = [variable('auth.jwtRoleClaims'), variable('auth.jwtPermissionClaims')];
  const lists: [string, string[]][] = [
    [ROLE, jwt.roleClaims],
    [PERMISSION, jwt.permissionClaims],
  ];
  const both = [...new Set(jwt.roleClaims.filter((claim) => jwt.permissionClaims.includes(claim)))];
  return [
    ...both.map((claim) => `${ROLE} and ${PERMISSION} both name the claim "${claim}": a claim grants roles or permissions, not both`),
    ...lists
      .filter(([, claims]) => claims.includes(jwt.cardholderClaim))
      .map(
        ([list]) =>
          `${variable('auth.jwtCardholderClaim')} "${jwt.cardholderClaim}" is also in ${list}: the claim that binds a cardholder grants nothing else`,
      ),
  ];
}

export type LogLevel = (typeof LOG_LEVELS)[number];

/** `T` with the keys `K` optional: for code that builds a part of the configuration and leaves those to their defaults. */
type WithDefaults<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** The configured bank and who the gateway is to it, or the embedded sandbox's (src/start/sandbox-upstream.ts). */
export type BankIdentity = NonNullable<Config['upstream']['bank']>;

/** The gateway's own login to the bank (UPSTREAM_CLIENT_KEY, UPSTREAM_CLIENT_SECRET, UPSTREAM_EMAIL), or a caller's. */
export type BankLoginCredentials = NonNullable<BankIdentity['credentials']>;

/**
 * The bank the gateway calls, with how every call to it goes (upstreamFor). Code that builds one
 * (tests, the benchmark) may leave out the limit (DEFAULT_CONCURRENCY), the cache (none) and the
 * contract checks (as shipped, DEFAULT_CONTRACT_CHECK; the test kit asks for `all`).
 */
export type UpstreamConfig = BankIdentity &
  Omit<Config['upstream'], 'bank' | 'contractCheck'> &
  Partial<Pick<Config['upstream'], 'contractCheck'>> &
  Partial<Pick<Config, 'concurrency' | 'cache'>>;

/** Which of the bank's answers are also checked whole, and what a violation then does (UPSTREAM_CONTRACT_CHECK). */
export type ContractCheckConfig = Config['upstream']['contractCheck'];

/** Which bank reads are kept, how long, and how many (UPSTREAM_CACHE_*). */
export type CacheConfig = Config['cache'];

/**
 * The adaptive limit on calls in flight per bank host: where it starts, its bounds, whether it
 * learns, and the cap on one client's share of it (`perClient`, 0 = none).
 */
export type ConcurrencyConfig = Config['concurrency'];

/** Operations one client may start per window (0 = no limit). */
export type ClientRateLimitConfig = Config['clientRateLimit'];
/** Live queries: their push interval and how many one caller and one connection may hold open. */
export type LiveQueryConfig = Config['liveQueries'];

/** Webhook intake and the gateway's subscription to the bank's events. */
export type WebhookConfig = Config['webhooks'];
/** As a Federation 2 subgraph behind a router. */
export type FederationConfig = Config['federation'];

/**
 * The log of published bank events that subscriptions resume from (`after`): Redis Streams with
 * Redis, memory without. Events older than `maxAgeMs`, or past the newest `maxEvents`, are dropped.
 */
export type EventLogConfig = Config['events']['log'];

/**
 * When an accepted bank event counts as safe (REDIS_MIN_REPLICAS_ACK, REDIS_REPLICA_ACK_TIMEOUT_MS):
 * on the primary and on this many replicas, waited for at most this long.
 */
export interface EventDurability {
  minReplicasAck: number;
  replicaAckTimeoutMs: number;
}

/** JWTs of an identity provider; code that builds this may leave the claims to their defaults (authorization/permissions.ts). */
export type JwtConfig = WithDefaults<
  NonNullable<Config['auth']['jwt']>,
  'roleClaims' | 'permissionClaims' | 'permissionClaimsGrantRoles' | 'cardholderClaim'
>;

/**
 * Who may call the gateway, and what each caller may do (the auth group). Code that builds one may
 * leave out passthrough's roles (everything the bank allows), and may shorten how long the bank's
 * verdict on a passthrough token is remembered (`tokenCheckTtlMs`, default 60 s).
 */
export type CallerAuthConfig = WithDefaults<Omit<Config['auth'], 'jwt'>, 'passthrough'> & {
  jwt: JwtConfig | undefined;
  tokenCheckTtlMs?: number;
};

/** One API key: its name (in logs, metrics and the audit trail), its hash, and what its caller may do. */
export type ApiKeyConfig = Config['auth']['apiKeys'][number];

/** What may be asked: limits checked before execution, with production's defaults resolved. */
export type QueryLimitsConfig = Config['limits'];

/** Where spans are exported, and as which service; absent from the configuration, tracing is off. */
export type TracingConfig = NonNullable<Config['tracing']>;

/** The audit trail: its destination and the cap of its Redis Stream. */
export type AuditConfig = Config['audit'];

/** How the gateway survives a failing bank. */
export type ResilienceConfig = Config['resilience'];
/** A circuit breaker per upstream family. */
export type BreakerConfig = ResilienceConfig['breaker'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = reader.read(env);
  const settingProblems = result.ok
    ? [...concurrencyProblems(result.settings.concurrency), ...jwtClaimProblems(result.settings.auth.jwt)]
    : result.problems;
  const problems = [...settingProblems, ...crossSettingProblems(env)];
  if (!result.ok || problems.length > 0) throw new ConfigError(problems);
  return result.settings;
}

/** The limit's bounds must not cross (the initial limit is simply held within them). */
function concurrencyProblems({ min, max }: ConcurrencyConfig): string[] {
  return min > max ? [`${variable('concurrency.min')} (${min}) must not be above ${variable('concurrency.max')} (${max})`] : [];
}

/**
 * The bank the gateway calls, with how every call to it goes: the configured bank, or the embedded
 * sandbox when there is none (`npm start` gives its identity, src/start/sandbox-upstream.ts).
 */
export function upstreamFor(config: Pick<Config, 'upstream' | 'concurrency' | 'cache'>, bank: BankIdentity): UpstreamConfig {
  const { bank: _configured, ...calls } = config.upstream;
  return { ...bank, ...calls, concurrency: config.concurrency, cache: config.cache };
}

/** The defaults, for code that builds a gateway without the environment (tests, benchmark). */
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
