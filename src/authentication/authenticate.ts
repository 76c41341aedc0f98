import type { CallerAuthConfig } from '../settings/index.ts';
import { createThrottledLog, type Logger } from '../platform/logger.ts';
import { accessOf, type Access } from '../authorization/permissions.ts';
import { createApiKeyMatcher } from './api-keys.ts';
import { API_KEY_HEADER, type Presented } from './credentials.ts';
import { anonymous, ANONYMOUS_PASSTHROUGH, unprovenToken, type CallerIdentity } from './identity.ts';
import { createJwtVerifier, type IgnoredClaimValue } from './jwt.ts';
import { AuthRefusal } from './refusal.ts';

/**
 * A presented credential → who is calling, or an AuthRefusal. Pure and local: nothing here calls
 * the bank (a bank token is proven later, see bank-users.ts).
 */
type Authenticate = (presented: Presented) => Promise<CallerIdentity>;

export interface Authenticator {
  authenticate: Authenticate;
  /** The WWW-Authenticate challenge of a 401: the schemes this mode accepts. */
  challenge: string;
}

const REALM = 'realm="banking-gateway"';

const IGNORED_CLAIM_VALUE: Record<IgnoredClaimValue['why'], string> = {
  unknown: 'a JWT claim value names no role or permission of this gateway: ignored (roles and permissions: docs/permissions.md)',
  'role-in-permission-claim':
    'a JWT permission claim (JWT_PERMISSION_CLAIMS) names a role: ignored, roles come from JWT_ROLE_CLAIMS only unless JWT_PERMISSION_CLAIMS_GRANT_ROLES=true (docs/permissions.md)',
};

/** Mode none (the embedded sandbox): every caller may do everything. */
export const EVERYTHING: Access = accessOf({ roles: ['admin'] });

export function createAuthenticator(config: CallerAuthConfig, logger: Logger): Authenticator {
  if (config.mode === 'service') return serviceAuthenticator(config, logger);
  if (config.mode === 'passthrough') return { authenticate: passthrough, challenge: `Bearer ${REALM}` };
  const everyone = anonymous(EVERYTHING);
  return {
    authenticate: async (presented) => (presented.kind === 'bearer' ? unprovenToken(presented.token) : everyone),
    challenge: `Bearer ${REALM}`,
  };
}

/** Anonymous callers are let through here: they may only log in (see operations.ts). */
async function passthrough(presented: Presented): Promise<CallerIdentity> {
  switch (presented.kind) {
    case 'bearer':
      return unprovenToken(presented.token);
    case 'none':
      return ANONYMOUS_PASSTHROUGH;
    case 'malformed':
      throw new AuthRefusal('invalid', 'Authorization must be "Bearer <token>", with a token from the accessTokenCreate mutation');
    default:
      throw new AuthRefusal(
        'invalid',
        `This gateway takes the bank's access token ("Authorization: Bearer <token>", from accessTokenCreate), not an API key`,
      );
  }
}

function serviceAuthenticator(config: CallerAuthConfig, logger: Logger): Authenticator {
  const matchKey = config.apiKeys.length > 0 ? createApiKeyMatcher(config.apiKeys) : undefined;
  const keys = new Map(config.apiKeys.map((key) => [key.name, accessOf(key)]));
  const jwt = config.jwt ? createJwtVerifier(config.jwt) : undefined;
  // Each ignored value once: claims are the identity provider's, and the same come with every request.
  const log = createThrottledLog(logger, Number.POSITIVE_INFINITY);
  const ignoredClaimValue = ({ value, why }: IgnoredClaimValue) =>
    log(`${why}:${value}`, 'warn', { value: value.slice(0, 100) }, IGNORED_CLAIM_VALUE[why]);
  const accepted = [matchKey && `an API key in the ${API_KEY_HEADER} header`, jwt && 'a JWT as "Authorization: Bearer <jwt>"']
    .filter(Boolean)
    .join(' or ');
  const challenge = [matchKey && `ApiKey ${REALM}, header="${API_KEY_HEADER}"`, jwt && `Bearer ${REALM}`].filter(Boolean).join(', ');
  const authenticate: Authenticate = async (presented) => {
    switch (presented.kind) {
      case 'none':
        throw new AuthRefusal('missing', `Authentication required: send ${accepted}`);
      case 'both':
        throw new AuthRefusal('invalid', `Send one credential, not both an API key and a bearer token`);
      case 'malformed':
        throw new AuthRefusal('invalid', `The Authorization header is not "Bearer <jwt>": send ${accepted}`);
      case 'api-key': {
        if (!matchKey) throw new AuthRefusal('invalid', `API keys are not accepted here: send ${accepted}`);
        const name = matchKey(presented.key);
        if (!name) throw new AuthRefusal('invalid', `The API key in ${API_KEY_HEADER} is not one of this gateway's keys`);
        return { kind: 'api-key', name, access: keys.get(name)! };
      }
      case 'bearer': {
        if (!jwt) throw new AuthRefusal('invalid', `Bearer tokens are not accepted here: send ${accepted}`);
        const { subject, access, ignored, expiresAt } = await jwt(presented.token);
        for (const value of ignored) ignoredClaimValue(value);
        return { kind: 'jwt', name: subject, access, expiresAt };
      }
    }
  };
  return { authenticate, challenge };
}
