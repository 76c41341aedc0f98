import type { IncomingMessage } from 'node:http';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import type { CallerAuthConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { UpstreamAuthError } from '../upstream/errors.ts';
import type { Upstream, UpstreamRuntime } from '../upstream/index.ts';
import { createAuthenticator } from './authenticate.ts';
import { presentedInHeaders, presentedOnSocket } from './credentials.ts';
import { useCsrfPrevention } from './csrf.ts';
import type { CallerIdentity } from './identity.ts';
import { corsOptions, createOriginCheck } from './origins.ts';
import { createTokenCheck, guardTokenless, type TokenCheck } from './passthrough.ts';
import { logRefusal, useAuthentication } from './plugin.ts';
import { AuthRefusal, closeReason, refusalError, SOCKET_CLOSE } from './refusal.ts';

export { bearerToken } from './credentials.ts';

/** A graphql-ws connection refused at connection_init: closed with this code and reason. */
export interface SocketRefusal {
  code: number;
  reason: string;
}

/**
 * Caller authentication for every transport: HTTP and SSE (both through Yoga's plugins) and
 * graphql-ws (connection_init, then the same per-operation rules). Modes: see CallerAuthConfig.
 */
export interface CallerAuth {
  config: CallerAuthConfig;
  /** Yoga plugins: CSRF prevention, then authentication before the document is parsed. */
  plugins: Plugin[];
  cors: YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors'];
  /** The identity of an HTTP/SSE request the plugins let in (or of a graphql-ws operation, see adopt). */
  identify(request: Request): Promise<CallerIdentity>;
  /** graphql-ws: the identity established at connection_init serves the socket's operations. */
  adopt(request: Request, caller: CallerIdentity): void;
  /**
   * The request's upstream as the caller may use it: in passthrough, the calls that carry no token
   * (webhook management) first prove the caller's token to the bank.
   */
  guardUpstream(caller: CallerIdentity, upstream: Upstream, correlationId?: string): Upstream;
  /** graphql-ws `connection_init`: who connected, or why the socket is refused. */
  authorizeSocket(request: IncomingMessage, connectionParams: Record<string, unknown> | undefined): Promise<CallerIdentity | SocketRefusal>;
  /** WebSocket upgrades: whether a browser origin may connect (`host`: the upgrade's Host header). */
  originAllowed(origin: string | undefined, host?: string): boolean;
}

export interface CallerAuthDeps {
  upstream: UpstreamRuntime;
  logger: Logger;
}

export function isSocketRefusal(value: CallerIdentity | SocketRefusal): value is SocketRefusal {
  return 'code' in value;
}

export function createCallerAuth(config: CallerAuthConfig, deps: CallerAuthDeps): CallerAuth {
  if (config.mode === 'service' && config.apiKeys.length === 0 && !config.jwt) {
    throw new Error('AUTH_MODE service needs API keys (GATEWAY_API_KEY_HASHES) or a JWKS (JWT_JWKS_URL, JWT_ISSUER, JWT_AUDIENCE)');
  }
  const { logger } = deps;
  const authenticator = createAuthenticator(config);
  const identities = new WeakMap<Request, CallerIdentity>();
  // One check (and one cache) for the tokenless calls, subscriptions and sockets.
  const tokenCheck = config.mode === 'passthrough' ? createTokenCheck(deps.upstream, config.tokenCheckTtlMs) : undefined;
  const passthrough = tokenCheck && { proveToken: tokenProver(tokenCheck) };
  const originCheck = createOriginCheck(config.allowedOrigins);

  return {
    config,
    plugins: [useCsrfPrevention(), useAuthentication({ authenticator, identities, passthrough, logger })],
    cors: corsOptions(config.allowedOrigins),
    identify: async (request) => {
      const known = identities.get(request);
      if (known) return known;
      try {
        return await authenticator.authenticate(presentedInHeaders(request.headers));
      } catch (error) {
        throw error instanceof AuthRefusal ? refusalError(error, authenticator.challenge) : error;
      }
    },
    adopt: (request, caller) => {
      identities.set(request, caller);
    },
    guardUpstream: (caller, upstream, correlationId) => {
      const token = caller.upstreamToken;
      if (!tokenCheck || !token) return upstream;
      return guardTokenless(upstream, () => tokenCheck(token, correlationId));
    },
    authorizeSocket: async (request, params) => {
      try {
        const caller = await authenticator.authenticate(presentedOnSocket(params, request.headers));
        if (passthrough) {
          if (!caller.upstreamToken) throw new AuthRefusal('missing', 'Send connectionParams.authorization "Bearer <token>" (log in with accessTokenCreate over HTTP)');
          await passthrough.proveToken(caller.upstreamToken);
        }
        return caller;
      } catch (error) {
        if (!(error instanceof AuthRefusal)) throw error;
        logRefusal(logger, error, 'graphql-ws');
        return { code: SOCKET_CLOSE[error.kind], reason: closeReason(error.message) };
      }
    },
    originAllowed: originCheck,
  };
}

/** A token check whose failures are refusals: the bank said no, or could not say. */
function tokenProver(check: TokenCheck): (token: string, correlationId?: string) => Promise<void> {
  return async (token, correlationId) => {
    try {
      await check(token, correlationId);
    } catch (error) {
      if (error instanceof UpstreamAuthError) {
        throw new AuthRefusal('invalid', 'The bank does not accept this access token (expired or revoked): log in again with accessTokenCreate');
      }
      throw new AuthRefusal('unavailable', 'The access token cannot be checked right now: the bank is not answering', { cause: error });
    }
  };
}
