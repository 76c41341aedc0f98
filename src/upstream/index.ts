import { createHash } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_RESILIENCE,
  type CacheConfig,
  type BankLoginCredentials,
  type ResilienceConfig,
  type UpstreamConfig,
} from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { accountsApi } from './accounts.ts';
import { cardsApi } from './cards.ts';
import { directDebitApi } from './direct-debit.ts';
import { cardholdersApi } from './cardholders.ts';
import { beneficiariesApi } from './beneficiaries.ts';
import { fxApi } from './fx.ts';
import { kycApi } from './kyc.ts';
import { onboardingApi } from './onboarding.ts';
import { payoutsApi } from './payouts.ts';
import { walletsApi } from './wallets.ts';
import { tokenlessCall, webhooksApi, type WebhookCatalogueEntry } from './webhooks.ts';
import { callerToken, login, TokenManager } from './bank-tokens.ts';
import { bindCall, type BoundCall, type CallScope } from './bound-call.ts';
import { BankConnection, type TokenSource } from './bank-connection.ts';
import { NoCredentialsError } from './errors.ts';
import { HostLimit } from './host-limit.ts';
import { startOperation, type Operation } from './operation.ts';
import type { UpstreamFamily } from './families.ts';
import { RecordCache } from './record-cache.ts';
import type { BreakerState, HostLimitReading, UpstreamObserver } from './observer.ts';
import type { RetryPolicy } from './retry-policy.ts';
import { createSharedCallState } from './shared-call-state.ts';
import { TtlCache } from './ttl-cache.ts';
import type { UncertainWrites } from './uncertain-writes.ts';

/**
 * The program's state, shared by every request of one runtime whichever its bank user: what the
 * record cache cannot hold (its reads are per bank user), such as the webhook catalogue. Each
 * domain that needs one adds it here.
 */
function createProgramState(productId: string) {
  return {
    /** The webhook catalogue per program: reference data, 5 minutes. */
    webhookCatalogues: new TtlCache<WebhookCatalogueEntry[]>({ ttlMs: 5 * 60_000 }),
    /** The product id, which webhook management names program_code (Document 3, 4.1). */
    programCode: productId,
  };
}
type ProgramState = ReturnType<typeof createProgramState>;

/** The connections to the bank: the main base address, and Document 3's direct debit base (often the same). */
interface BankConnections {
  main: BankConnection;
  directDebit: BankConnection;
}

/** What one request's calls are bound to: its token source and scope, on the runtime's connections. */
interface RequestBinding {
  connections: BankConnections;
  auth: TokenSource;
  program: ProgramState;
  scope: CallScope;
  /** The main connection's bound call, made for the first domain that needs it. */
  call?: BoundCall;
}

const mainCall = (request: RequestBinding) => (request.call ??= bindCall(request.connections.main, request.auth, request.scope));

/** Every typed upstream call of one request, domain by domain, from its binding. Each domain adds its API here. */
const DOMAINS = {
  /** Direct debit: its own base address, the same token. */
  directDebit: (request: RequestBinding) => directDebitApi(bindCall(request.connections.directDebit, request.auth, request.scope)),
  accounts: (request: RequestBinding) => accountsApi(mainCall(request)),
  cards: (request: RequestBinding) => cardsApi(mainCall(request)),
  cardholders: (request: RequestBinding) => cardholdersApi(mainCall(request)),
  wallets: (request: RequestBinding) => walletsApi(mainCall(request)),
  kyc: (request: RequestBinding) => kycApi(mainCall(request)),
  onboarding: (request: RequestBinding) => onboardingApi(mainCall(request)),
  beneficiaries: (request: RequestBinding) => beneficiariesApi(mainCall(request)),
  fx: (request: RequestBinding) => fxApi(mainCall(request)),
  payouts: (request: RequestBinding) => payoutsApi(mainCall(request)),
  /** Webhook management: x-api-key only, so no token is fetched for it. */
  webhooks: (request: RequestBinding) =>
    webhooksApi(tokenlessCall(request.connections.main, request.scope), request.program.webhookCatalogues),
  /** program_code of webhook management: the product id. */
  programCode: (request: RequestBinding) => request.program.programCode,
  /** Log in with client credentials a caller supplied (the accessTokenCreate mutation). */
  login: (request: RequestBinding) => (credentials: BankLoginCredentials) => login(request.connections.main, credentials),
};

/** The upstream of one request: each domain's typed calls. */
export type Upstream = { [Domain in keyof typeof DOMAINS]: ReturnType<(typeof DOMAINS)[Domain]> };

const BINDING = Symbol('request binding');

/**
 * Each domain's calls made when a resolver first reaches for them, then kept on the request's
 * upstream: a screen touches two or three of the eleven, and making every one for every request
 * allocated closures for nothing. The getters live on one prototype every request's upstream
 * shares, so a request costs one small object (eleven accessors defined on each request's own
 * object cost more CPU than the rest of making its calls). A copy with some domains replaced is
 * `withDomains`, not a spread, which would see none of the domains not yet made.
 */
const LAZY_DOMAINS: object = Object.create(
  Object.prototype,
  Object.fromEntries(
    Object.entries(DOMAINS).map(([name, make]) => [
      name,
      {
        enumerable: true,
        configurable: true,
        get(this: { [BINDING]: RequestBinding }) {
          const value = make(this[BINDING]);
          Object.defineProperty(this, name, { value, enumerable: true, writable: true, configurable: true });
          return value;
        },
      },
    ]),
  ),
);

function createUpstream(connections: BankConnections, auth: TokenSource, program: ProgramState, scope: CallScope = {}): Upstream {
  const upstream = Object.create(LAZY_DOMAINS) as { [BINDING]: RequestBinding };
  upstream[BINDING] = { connections, auth, program, scope };
  return upstream as unknown as Upstream;
}

/**
 * `upstream` with `replaced` domains in place of its own (the cardholder scope's narrowed reads,
 * passthrough's guarded webhook calls); every other domain reads through to `upstream`'s, made when
 * first reached for, as on `upstream` itself.
 */
export function withDomains(upstream: Upstream, replaced: Partial<Upstream>): Upstream {
  return Object.assign(Object.create(upstream) as Upstream, replaced);
}

/** Who the upstream calls of one request act for, and by when they must be done. */
interface RequestScope extends CallScope {
  /** A caller's own upstream token (passthrough, or a bearer sent in mode none): forwarded as is. */
  callerToken?: string | undefined;
  /**
   * Whether the gateway's own login may serve the request when no caller token came. Never in
   * passthrough mode: an anonymous caller must not borrow the gateway's access to the bank.
   */
  gatewayLogin: boolean;
  /**
   * A narrower view of the bank user's records (a caller bound to one cardholder): its reads are
   * kept apart from everyone else's in the record cache, so no view is ever answered from another's.
   */
  view?: string | undefined;
}

/** The long-lived half: one connection and one token manager per upstream, shared by all requests. */
export interface UpstreamRuntime {
  connection: BankConnection;
  directDebitConnection: BankConnection;
  /** The gateway's own login, if it has client credentials. */
  tokens: TokenManager | undefined;
  /** The upstream for one request: the caller's token if sent, else the gateway's own login where allowed. */
  forRequest(scope: RequestScope): Upstream;
  /**
   * What bounds the upstream calls of one operation, made once as it starts (yoga.ts) and given to
   * its calls through RequestScope.operation. A query or mutation: its deadline (its start plus
   * OPERATION_DEADLINE_MS) and its client leaving (`client` aborts), counted as abandoned when it
   * comes before `end()`. A subscription: its client leaving alone, which is how it ends, never
   * counted; each event's reads last while the subscription does.
   */
  startOperation(kind: 'execution' | 'subscription', client: AbortSignal | undefined, correlationId?: string): Operation;
  /** How long an operation may take (OPERATION_DEADLINE_MS). */
  operationDeadlineMs: number;
  /** Each upstream family's circuit breaker, read from memory (readiness). */
  breakerStates(): Record<UpstreamFamily, BreakerState>;
  /** Each bank host's concurrency limit as it stands: the limit in force, calls in flight and waiting. */
  concurrencyLimits(): Record<string, HostLimitReading>;
  /** When the family last answered a call with a status under 500, epoch ms (readiness). */
  lastAnsweredAt(family: UpstreamFamily): number | undefined;
  /** Kept bank reads (UPSTREAM_CACHE); undefined when off. Bank events and other instances' writes invalidate it from above. */
  cache: RecordCache | undefined;
  /** Closes the pools: after the calls in flight, or at once with `force`. */
  close(force?: boolean): Promise<void>;
}

/**
 * Whose answers a request's reads are: a caller's own token is its own bank user (kept by a hash,
 * never the token); every other request acts as the gateway's own login.
 */
function cacheScopeOf(bearer: string | undefined, gatewayLogin: boolean, view: string | undefined): string | undefined {
  const user = bearer ? `token:${createHash('sha256').update(bearer).digest('base64url')}` : gatewayLogin ? 'gateway-login' : undefined;
  // No token at all: the calls will be refused, and nothing may be answered from anyone's reads.
  if (user === undefined) return undefined;
  return view === undefined ? user : `${user}|${view}`;
}

function createRecordCache(config: CacheConfig | undefined): RecordCache | undefined {
  if (!config?.enabled) return undefined;
  return new RecordCache({
    ttls: { records: config.recordsTtlMs, rates: config.ratesTtlMs, reference: config.referenceTtlMs },
    maxEntries: config.maxEntries,
  });
}

/**
 * One runtime per gateway. Its connections (one per base address) share the calls' state: breakers and
 * Retry-After holds per family, one retry budget, and the observer that metrics and readiness listen on. With a
 * tracer (tracing on), each attempt is a span of the trace it is made in.
 */
export function createUpstreamRuntime(
  config: UpstreamConfig,
  logger: Logger,
  retry?: RetryPolicy,
  resilience: ResilienceConfig = DEFAULT_RESILIENCE,
  observer?: UpstreamObserver,
  tracer?: Tracer,
  uncertainWrites?: UncertainWrites,
): UpstreamRuntime {
  const callState = createSharedCallState({
    resilience,
    retryBudget: retry?.retryBudget,
    observer,
    logger,
    uncertainWrites,
    contractCheck: config.contractCheck,
  });
  const concurrency = config.concurrency ?? DEFAULT_CONCURRENCY;
  // One limit per bank host, whichever base addresses on it the connections call.
  const hostLimits = new Map<string, HostLimit>();
  const hostLimit = (baseUrl: string) => {
    const { host } = new URL(baseUrl);
    let limit = hostLimits.get(host);
    if (!limit) hostLimits.set(host, (limit = new HostLimit(host, concurrency, callState.observer)));
    return limit;
  };
  const cache = createRecordCache(config.cache);
  const connection = new BankConnection({
    ...config,
    logger,
    retry,
    callState,
    concurrency,
    tracer,
    hostLimit: hostLimit(config.baseUrl),
    cache,
  });
  const directDebitConnection =
    config.directDebitBaseUrl === config.baseUrl
      ? connection
      : new BankConnection({
          ...config,
          baseUrl: config.directDebitBaseUrl,
          logger,
          retry,
          callState,
          concurrency,
          tracer,
          hostLimit: hostLimit(config.directDebitBaseUrl),
          cache,
        });
  const connections = { main: connection, directDebit: directDebitConnection };
  const credentials = config.credentials;
  const tokens = credentials ? new TokenManager({ login: () => login(connection, credentials), logger }) : undefined;
  const program = createProgramState(config.productId);
  const noToken: TokenSource = {
    get: () => Promise.reject(new NoCredentialsError()),
  };
  // The operation log never sees an operation whose execution was stopped: this line says it ended.
  const abandoned = (correlationId: string | undefined) => {
    callState.observer.operationAbandoned?.();
    logger.info({ requestId: correlationId }, 'operation abandoned: the client left before it was done; its calls not yet sent were not');
  };
  return {
    connection,
    directDebitConnection,
    tokens,
    forRequest: ({ callerToken: bearer, gatewayLogin, view, ...scope }) => {
      const auth = bearer ? callerToken(bearer) : gatewayLogin && tokens ? tokens : noToken;
      // Hashing the token is work for the cache alone: none when it is off.
      return createUpstream(connections, auth, program, {
        ...scope,
        cacheScope: cache ? cacheScopeOf(bearer, auth === tokens, view) : undefined,
      });
    },
    startOperation: (kind, client, correlationId) =>
      kind === 'subscription'
        ? startOperation({ deadline: undefined, client, correlationId })
        : startOperation({
            deadline: Date.now() + resilience.operationDeadlineMs,
            client,
            correlationId,
            onAbandoned: () => abandoned(correlationId),
          }),
    operationDeadlineMs: resilience.operationDeadlineMs,
    cache,
    breakerStates: () => callState.breakers.states(),
    lastAnsweredAt: (family) => callState.lastAnswers.at(family),
    concurrencyLimits: () => Object.fromEntries([...hostLimits].map(([host, limit]) => [host, limit.state])),
    close: async (force = false) => {
      await connection.close(force);
      if (directDebitConnection !== connection) await directDebitConnection.close(force);
    },
  };
}
