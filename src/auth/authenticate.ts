import type { CallerAuthConfig } from '../config.ts';
import { createApiKeyMatcher } from './api-keys.ts';
import { API_KEY_HEADER, type Presented } from './credentials.ts';
import { ANONYMOUS, type CallerIdentity } from './identity.ts';
import { createJwtVerifier } from './jwt.ts';
import { AuthRefusal } from './refusal.ts';

/**
 * A presented credential → who is calling, or an AuthRefusal. Pure and local: nothing here calls
 * the bank (a passthrough token is judged later, by the bank; see passthrough.ts).
 */
export type Authenticate = (presented: Presented) => Promise<CallerIdentity>;

export interface Authenticator {
  authenticate: Authenticate;
  /** The WWW-Authenticate challenge of a 401: the schemes this mode accepts. */
  challenge: string;
}

const REALM = 'realm="banking-gateway"';

export function createAuthenticator(config: CallerAuthConfig): Authenticator {
  if (config.mode === 'service') return serviceAuthenticator(config);
  if (config.mode === 'passthrough') return { authenticate: passthrough, challenge: `Bearer ${REALM}` };
  return { authenticate: async (presented) => (presented.kind === 'bearer' ? upstreamToken(presented.token) : ANONYMOUS), challenge: `Bearer ${REALM}` };
}

function upstreamToken(token: string): CallerIdentity {
  return { kind: 'upstream-token', name: 'upstream-token', upstreamToken: token };
}

/** Anonymous callers are let through here: they may only log in (see rules.ts). */
async function passthrough(presented: Presented): Promise<CallerIdentity> {
  switch (presented.kind) {
    case 'bearer':
      return upstreamToken(presented.token);
    case 'none':
      return ANONYMOUS;
    case 'malformed':
      throw new AuthRefusal('invalid', 'Authorization must be "Bearer <token>", with a token from the accessTokenCreate mutation');
    default:
      throw new AuthRefusal('invalid', `This gateway takes the bank's access token ("Authorization: Bearer <token>", from accessTokenCreate), not an API key`);
  }
}

function serviceAuthenticator(config: CallerAuthConfig): Authenticator {
  const matchKey = config.apiKeys.length > 0 ? createApiKeyMatcher(config.apiKeys) : undefined;
  const jwt = config.jwt ? createJwtVerifier(config.jwt) : undefined;
  const accepted = [matchKey && `an API key in the ${API_KEY_HEADER} header`, jwt && 'a JWT as "Authorization: Bearer <jwt>"'].filter(Boolean).join(' or ');
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
        return { kind: 'api-key', name };
      }
      case 'bearer': {
        if (!jwt) throw new AuthRefusal('invalid', `Bearer tokens are not accepted here: send ${accepted}`);
        const { subject } = await jwt(presented.token);
        return { kind: 'jwt', name: subject };
      }
    }
  };
  return { authenticate, challenge };
}
