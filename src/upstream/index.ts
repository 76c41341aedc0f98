import type { ClientCredentials, UpstreamConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import { accountsApi } from './accounts.ts';
import { cardsApi } from './cards.ts';
import { cardholdersApi } from './cardholders.ts';
import { beneficiariesApi, type BeneficiaryRule } from './beneficiaries.ts';
import { fxApi } from './fx.ts';
import { kycApi } from './kyc.ts';
import { onboardingApi } from './onboarding.ts';
import { payoutsApi } from './payouts.ts';
import { walletsApi } from './wallets.ts';
import { tokenlessCaller, webhooksApi } from './webhooks.ts';
import { callerToken, login, TokenManager } from './auth.ts';
import { bindCaller } from './caller.ts';
import { UpstreamClient, type TokenSource } from './client.ts';
import { NoCredentialsError } from './errors.ts';
import type { RetryPolicy } from './retry.ts';
import { TtlCache } from './ttl-cache.ts';

/**
 * State shared by every request of one runtime (caches of rarely-changing upstream data). Each
 * domain that needs one adds it here.
 */
export function createSharedState(productId: string) {
  return {
    /** Beneficiary rule sets per combination (bank country, currency, entity type, method): 5 minutes. */
    beneficiaryRuleSets: new TtlCache<BeneficiaryRule[]>({ ttlMs: 5 * 60_000 }),
    /** The product id, which webhook management names program_code (Document 3, 4.1). */
    programCode: productId,
  };
}
export type SharedState = ReturnType<typeof createSharedState>;

/** Every typed upstream call, bound to one request's token source. Each domain adds its API here. */
export function createUpstream(client: UpstreamClient, auth: TokenSource, shared: SharedState) {
  const call = bindCaller(client, auth);
  return {
    accounts: accountsApi(call),
    cards: cardsApi(call),
    cardholders: cardholdersApi(call),
    wallets: walletsApi(call),
    kyc: kycApi(call),
    onboarding: onboardingApi(call),
    beneficiaries: beneficiariesApi(call, shared.beneficiaryRuleSets),
    fx: fxApi(call),
    payouts: payoutsApi(call),
    /** Webhook management: x-api-key only, so no token is fetched for it. */
    webhooks: webhooksApi(tokenlessCaller(client)),
    /** program_code of webhook management: the product id. */
    programCode: shared.programCode,
    /** Log in with client credentials a caller supplied (the accessTokenCreate mutation). */
    login: (credentials: ClientCredentials) => login(client, credentials),
  };
}
export type Upstream = ReturnType<typeof createUpstream>;

/** The long-lived half: one connection pool and one token manager per upstream, shared by all requests. */
export interface UpstreamRuntime {
  client: UpstreamClient;
  /** The gateway's own login, if it has client credentials. */
  tokens: TokenManager | undefined;
  /** The upstream for one request: the caller's bearer token if sent, else the gateway's own login. */
  forRequest(bearerToken: string | undefined): Upstream;
  close(): Promise<void>;
}

export function createUpstreamRuntime(config: UpstreamConfig, logger: Logger, retry?: RetryPolicy): UpstreamRuntime {
  const client = new UpstreamClient({ ...config, logger, retry });
  const credentials = config.credentials;
  const tokens = credentials ? new TokenManager({ login: () => login(client, credentials), logger }) : undefined;
  const shared = createSharedState(config.productId);
  const noToken: TokenSource = {
    get: () => Promise.reject(new NoCredentialsError()),
  };
  return {
    client,
    tokens,
    forRequest: (bearer) => createUpstream(client, bearer ? callerToken(bearer) : (tokens ?? noToken), shared),
    close: () => client.close(),
  };
}
