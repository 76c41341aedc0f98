/**
 * The rules across the caller settings: against a real bank callers must authenticate (`none` is for
 * the embedded sandbox only), and a setting another mode would ignore stops the start.
 */

/*
 * The gateway holds the keys to a company's accounts, hence the refusals; a setting that would be
 * ignored stops the start too, since the operator meant it to do something.
 */

import type { CallerAuthSettings } from './callers.ts';
import type { RawEnvironment, VariableOf } from './raw-environment.ts';

/** The settings of a JWT verifier: given together, or not at all. */
const JWT_TRIO = ['auth.jwksUrl', 'auth.jwtIssuer', 'auth.jwtAudience'];

const JWT_CLAIM_SETTINGS = [
  'auth.jwtRoleClaims',
  'auth.jwtPermissionClaims',
  'auth.jwtPermissionClaimsGrantRoles',
  'auth.jwtCardholderClaim',
];

/** `A, B and C`. */
const inWords = (names: string[]) => names.join(', ').replace(/, ([^,]+)$/, ' and $1');

export function callerAuthProblems(raw: RawEnvironment): string[] {
  const mode = raw.env[raw.variable('auth.mode')] || undefined;
  const jwtGiven = JWT_TRIO.filter(raw.set);
  return [
    ...(jwtGiven.length === 0
      ? []
      : raw.requiredWith(JWT_TRIO, `with ${jwtGiven.map(raw.variable).join(' and ')} (JWTs are checked for issuer and audience)`)),
    ...realBankModeProblems(raw, mode),
    // Keys or a JWKS with another mode would be ignored: the operator meant callers to authenticate.
    ...(mode === 'service'
      ? serviceModeProblems(raw, jwtGiven)
      : usedOnlyInMode(raw, 'service', mode, ['auth.apiKeyHashes', ...jwtGiven, ...JWT_CLAIM_SETTINGS])),
    // Roles for bank users would be ignored: the operator meant to restrict them.
    ...(mode === 'passthrough' ? [] : usedOnlyInMode(raw, 'passthrough', mode, ['auth.passthroughRoles', 'auth.passthroughUserRoles'])),
  ];
}

/** A real upstream needs callers to authenticate. */
function realBankModeProblems({ set, variable }: RawEnvironment, mode: string | undefined): string[] {
  if (!set('upstream.baseUrl')) return [];
  const MODE = variable('auth.mode');
  if (mode === undefined) return [`${MODE} is required with a real upstream (passthrough or service)`];
  if (mode === 'none') return [`${MODE} none is allowed only with the embedded sandbox (leave ${variable('upstream.baseUrl')} unset)`];
  return [];
}

/** Service mode: a credential to check, the gateway's own login to a real bank, and claim settings only with a JWKS. */
function serviceModeProblems({ set, variable }: RawEnvironment, jwtGiven: string[]): string[] {
  const MODE = variable('auth.mode');
  const login = ['upstream.clientKey', 'upstream.clientSecret', 'upstream.email'].map(variable);
  return [
    ...serviceCredentialProblems(variable, { mode: 'service', apiKeys: set('auth.apiKeyHashes'), jwt: jwtGiven.length > 0 }),
    ...(set('upstream.baseUrl') && !set('upstream.clientKey')
      ? [`${MODE} service needs ${login[0]}, ${login[1]} and ${login[2]} (the gateway logs in itself)`]
      : []),
    // Claim settings without a JWKS would be ignored: the operator meant JWTs to be accepted.
    ...(jwtGiven.length > 0
      ? []
      : JWT_CLAIM_SETTINGS.filter(set).map(
          (path) => `${variable(path)} is used only with ${inWords(JWT_TRIO.map(variable))} (no JWT is accepted without them)`,
        )),
  ];
}

/** The settings of `paths` that are given although AUTH_MODE is not `wanted`. */
function usedOnlyInMode({ set, variable }: RawEnvironment, wanted: string, mode: string | undefined, paths: string[]): string[] {
  const MODE = variable('auth.mode');
  return paths.filter(set).map((path) => `${variable(path)} is used only with ${MODE} ${wanted} (${MODE} is ${mode ?? 'not set'})`);
}

/**
 * AUTH_MODE service with neither API keys nor a JWKS: no caller could ever get in. One rule for the
 * variables at start, and for a configuration built without them (createCallerAuth, by load.ts).
 */
export function serviceCredentialProblems(
  variable: VariableOf,
  given: { mode: string | undefined; apiKeys: boolean; jwt: boolean },
): string[] {
  if (given.mode !== 'service' || given.apiKeys || given.jwt) return [];
  return [`${variable('auth.mode')} service needs ${variable('auth.apiKeyHashes')} or ${inWords(JWT_TRIO.map(variable))}`];
}

/** A claim in two roles at once: a role claim that is also a permission claim, or the cardholder claim in either. */
export function jwtClaimProblems(jwt: CallerAuthSettings['jwt'], variable: VariableOf): string[] {
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
