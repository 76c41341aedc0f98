/**
 * Who may call the gateway (AUTH_MODE, API keys, JWTs, passthrough's roles, browser origins), read
 * into one shape per mode. The entries' rules are in caller-entries.ts, the rules across them in caller-checks.ts.
 */

import { flagOr, groupAs, httpUrl, list, oneOf, setting, text, unsetIfEmpty, type GroupSettings } from '@banking-gateway/settings';
import { z } from 'zod';
import { DEFAULT_JWT_CARDHOLDER_CLAIM, DEFAULT_JWT_PERMISSION_CLAIMS, DEFAULT_JWT_ROLE_CLAIMS } from '../authorization/permissions.ts';
import { apiKeyHash, bankUserGrants, claimNames, origin, passthroughRoles } from './caller-entries.ts';

const AUTH_MODES = ['none', 'passthrough', 'service'] as const;

/** The origin `npm run example:web` serves the example app from (Vite's port, see examples/web). */
const EXAMPLE_WEB_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

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

export const callersGroup = groupAs(
  'Who may call',
  "An entry written twice in any of these (a key's name or hash, a bank user, a role in one entry, a claim, an origin) stops the start, named: the gateway would otherwise keep one of them silently. See [operations.md](operations.md#who-may-call-auth_mode) and [permissions.md](permissions.md).",
  callerSettings,
  callerAuthOf,
);

/** The auth group as the settings read it. */
export type CallerAuthSettings = ReturnType<typeof callerAuthOf>;

/** With the embedded sandbox and no ALLOWED_ORIGINS, the example web app's dev server may call. */
export function withExampleWebOrigins(auth: CallerAuthSettings, realBank: boolean): CallerAuthSettings {
  return { ...auth, allowedOrigins: auth.allowedOrigins.length > 0 || realBank ? auth.allowedOrigins : EXAMPLE_WEB_ORIGINS };
}

/** `T` with the keys `K` optional: for code that builds a part of the configuration and leaves those to their defaults. */
type WithDefaults<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** JWTs of an identity provider; code that builds this may leave the claims to their defaults (authorization/permissions.ts). */
export type JwtConfig = WithDefaults<
  NonNullable<CallerAuthSettings['jwt']>,
  'roleClaims' | 'permissionClaims' | 'permissionClaimsGrantRoles' | 'cardholderClaim'
>;

/**
 * Who may call the gateway, and what each caller may do (the auth group). Code that builds one may
 * leave out passthrough's roles (everything the bank allows), and may shorten how long the bank's
 * verdict on a passthrough token is remembered (`tokenCheckTtlMs`, default 60 s).
 */
export type CallerAuthConfig = WithDefaults<Omit<CallerAuthSettings, 'jwt'>, 'passthrough'> & {
  jwt: JwtConfig | undefined;
  tokenCheckTtlMs?: number;
};

/** One API key: its name (in logs, metrics and the audit trail), its hash, and what its caller may do. */
export type ApiKeyConfig = CallerAuthSettings['apiKeys'][number];
