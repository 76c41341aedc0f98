import type { IncomingMessage } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { callerCredentialProblems, ConfigError, type CallerAuthConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { accessOf, type Access } from '../authorization/permissions.ts';
import { UpstreamAuthError } from '../upstream/errors.ts';
import type { Upstream, UpstreamRuntime } from '../upstream/index.ts';
import { createAuthenticator, EVERYTHING } from './authenticate.ts';
import { createBankUsers, type BankUsers } from './bank-users.ts';
import { boundToCardholder } from '../authorization/cardholder-scope.ts';
import { presentedInHeaders, presentedOnSocket } from './credentials.ts';
import { addressKey, type CallerIdentity } from './identity.ts';
import { corsOptions, createOriginCheck } from './origins.ts';
import { createTokenCheck, guardTokenless, type TokenCheck } from './passthrough.ts';
import { useAuthentication } from './plugin.ts';
import { AuthRefusal, closeReason, refusalError, SOCKET_CLOSE } from './refusal.ts';
import { createRefusalLog, type RefusalObserver } from './refusal-log.ts';

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
  /** The Yoga plugin: the credential before the body is read; in passthrough mode, its rules for each operation. */
  plugin: Plugin;
  cors: YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors'];
  /**
   * The identity of an HTTP/SSE request the plugins let in (or of a graphql-ws operation, see
   * adopt), complete: a bank token is proven first, if it was not already (`remoteAddress` keys
   * the anonymous share that proof counts against). Throws the GraphQL error to answer with.
   */
  identify(request: Request, remoteAddress?: string): Promise<CallerIdentity>;
  /** graphql-ws: the identity established at connection_init serves the socket's operations. */
  adopt(request: Request, caller: CallerIdentity): void;
  /** The identity authentication already gave the request, if it got that far: no check is made (the audit of refusals). */
  knownCaller(request: Request): CallerIdentity | undefined;
  /** A bank token the bank's login just issued (accessTokenCreate): its bank user is known without a proof. */
  learnToken(token: string): void;
  /**
   * The request's upstream as the caller may use it: in passthrough, the calls that carry no token
   * (webhook management) first prove the caller's token to the bank; a caller bound to a cardholder
   * reaches that cardholder's records only.
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
  /**
   * Counts a proof of a new bank token against the anonymous share of `client` (its address):
   * the refusal to answer with when that share is spent, undefined to go ahead. Absent: no limit.
   */
  limitProof?: ((client: string) => Promise<GraphQLError | undefined>) | undefined;
  /** Told of each refused caller, for metrics. */
  observer?: RefusalObserver | undefined;
  /**
   * Told of each socket refused at connection_init, by the refusal's code and the address it came
   * from (the audit trail's access-denied records; HTTP refusals are seen in the answers).
   */
  onSocketRefused?: ((code: string, remoteAddress: string | undefined) => void) | undefined;
}

export function isSocketRefusal(value: CallerIdentity | SocketRefusal): value is SocketRefusal {
  return 'code' in value;
}

export function createCallerAuth(config: CallerAuthConfig, deps: CallerAuthDeps): CallerAuth {
  // The start's own rule (settings), for a configuration built without the environment.
  const credentialProblems = callerCredentialProblems(config);
  if (credentialProblems.length > 0) throw new ConfigError(credentialProblems);
  const { logger } = deps;
  const logRefusal = createRefusalLog(logger, deps.observer);
  const authenticator = createAuthenticator(config, logger);
  const identities = new WeakMap<Request, CallerIdentity>();
  // One check (and one cache) for the proofs of bank tokens, the tokenless calls, subscriptions and sockets.
  const tokenCheck = config.mode === 'service' ? undefined : createTokenCheck(deps.upstream, config.tokenCheckTtlMs);
  const bankUsers = tokenCheck && createBankUsers(tokenCheck);
  const passthrough = config.mode === 'passthrough' && tokenCheck ? { proveToken: tokenProver(tokenCheck) } : undefined;
  const originCheck = createOriginCheck(config.allowedOrigins);
  const complete = identityCompleter(config, bankUsers, deps.limitProof);

  return {
    config,
    plugin: useAuthentication({ authenticator, identities, passthrough, logRefusal }),
    cors: corsOptions(config.allowedOrigins),
    identify: async (request, remoteAddress) => {
      try {
        const caller = identities.get(request) ?? (await authenticator.authenticate(presentedInHeaders(request.headers)));
        if (!caller.unproven) return caller;
        const proven = await complete(caller, remoteAddress);
        identities.set(request, proven);
        return proven;
      } catch (error) {
        if (!(error instanceof AuthRefusal)) throw error;
        logRefusal(error, 'http');
        throw refusalError(error, authenticator.challenge);
      }
    },
    adopt: (request, caller) => {
      identities.set(request, caller);
    },
    knownCaller: (request) => identities.get(request),
    learnToken: (token) => bankUsers?.learn(token),
    guardUpstream: (caller, upstream, correlationId) => {
      const token = caller.upstreamToken;
      const guarded = passthrough && token ? guardTokenless(upstream, () => tokenCheck!(token, correlationId)) : upstream;
      const cardholderId = caller.access.cardholderId;
      return cardholderId === null ? guarded : boundToCardholder(guarded, cardholderId);
    },
    authorizeSocket: async (request, params) => {
      try {
        const caller = await authenticator.authenticate(presentedOnSocket(params, request.headers));
        if (passthrough && !caller.upstreamToken) {
          throw new AuthRefusal(
            'missing',
            'Send connectionParams.authorization "Bearer <token>" (log in with accessTokenCreate over HTTP)',
          );
        }
        return caller.unproven ? await complete(caller, request.socket.remoteAddress) : caller;
      } catch (error) {
        // The proof of a new token was over the address's operations per window.
        if (isGraphQLError(error)) {
          deps.onSocketRefused?.(String(error.extensions.code), request.socket.remoteAddress);
          return { code: SOCKET_CLOSE_TOO_MANY, reason: closeReason(error.message) };
        }
        if (!(error instanceof AuthRefusal)) throw error;
        logRefusal(error, 'graphql-ws');
        deps.onSocketRefused?.(String(refusalError(error, authenticator.challenge).extensions.code), request.socket.remoteAddress);
        return { code: SOCKET_CLOSE[error.kind], reason: closeReason(error.message) };
      }
    },
    originAllowed: originCheck,
  };
}

/**
 * An unproven bank token → its caller: the bank user it belongs to (proven once, see bank-users.ts)
 * with what that user may do. A proof the anonymous share refuses is answered with that refusal (a
 * GraphQL error, RATE_LIMITED); the bank refusing the token is an AuthRefusal.
 */
function identityCompleter(config: CallerAuthConfig, bankUsers: BankUsers | undefined, limitProof: CallerAuthDeps['limitProof']) {
  const accessOfUser = bankUserAccess(config);
  return async (caller: CallerIdentity, remoteAddress: string | undefined): Promise<CallerIdentity> => {
    const token = caller.upstreamToken!;
    const beforeProof = async () => {
      const refusal = await limitProof?.(addressKey(remoteAddress));
      if (refusal) throw refusal;
    };
    let user: string;
    try {
      user = await bankUsers!.userOf(token, { beforeProof });
    } catch (error) {
      throw isGraphQLError(error) ? error : tokenRefusal(error);
    }
    return { kind: 'upstream-token', name: user, upstreamToken: token, access: accessOfUser(user) };
  };
}

/** graphql-ws's close code for a client that tried too often (its own, for too many connection_init). */
const SOCKET_CLOSE_TOO_MANY = 4429;

function isGraphQLError(error: unknown): error is GraphQLError {
  return error instanceof Error && error.name === 'GraphQLError';
}

/** What a bank user may do: mode none, everything; passthrough, its own roles or everyone's. */
function bankUserAccess(config: CallerAuthConfig): (user: string) => Access {
  const mapping = config.passthrough;
  if (config.mode !== 'passthrough' || !mapping) return () => EVERYTHING;
  const everyone = accessOf({ roles: mapping.roles });
  const byUser = new Map(mapping.users.map((grants) => [grants.user, accessOf(grants)]));
  return (user) => byUser.get(user) ?? everyone;
}

/** A failed token check in the caller's words: the bank said no, or could not say. */
function tokenRefusal(error: unknown): AuthRefusal {
  if (error instanceof UpstreamAuthError) {
    return new AuthRefusal(
      'invalid',
      'The bank does not accept this access token (expired or revoked): log in again with accessTokenCreate',
    );
  }
  return new AuthRefusal('unavailable', 'The access token cannot be checked right now: the bank is not answering', { cause: error });
}

/** A token check whose failures are refusals. */
function tokenProver(check: TokenCheck): (token: string, correlationId?: string) => Promise<void> {
  return (token, correlationId) =>
    check(token, correlationId).catch((error: unknown) => {
      throw tokenRefusal(error);
    });
}
