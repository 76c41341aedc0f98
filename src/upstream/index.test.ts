import { afterAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../settings/index.ts';
import { silentLogger } from '../platform/logger.ts';
import { NoCredentialsError } from './errors.ts';
import { createUpstreamRuntime, withDomains } from './index.ts';

// Nothing listens here: no test below reaches the bank.
const config: UpstreamConfig = {
  baseUrl: 'http://127.0.0.1:9',
  directDebitBaseUrl: 'http://127.0.0.1:9',
  serviceSegment: 'svc',
  apiKey: 'key',
  productId: 'program-1',
  userId: 'user-1',
  clientId: 'client-1',
  credentials: undefined,
  timeoutMs: 1_000,
};
const runtime = createUpstreamRuntime(config, silentLogger);
afterAll(() => runtime.close(true));

const DOMAINS = [
  'directDebit',
  'accounts',
  'cards',
  'cardholders',
  'wallets',
  'kyc',
  'onboarding',
  'beneficiaries',
  'fx',
  'payouts',
  'webhooks',
  'programCode',
  'login',
];

describe("a request's upstream", () => {
  it('makes a domain’s calls when it is first reached for, once, and no other domain’s', () => {
    const upstream = runtime.forRequest({ gatewayLogin: false });
    const made = () => DOMAINS.filter((name) => Object.hasOwn(upstream, name));
    expect(made()).toEqual([]);
    const cards = upstream.cards;
    expect(upstream.cards).toBe(cards);
    expect(made()).toEqual(['cards']);
    // Another request's upstream has its own.
    expect(runtime.forRequest({ gatewayLogin: false }).cards).not.toBe(cards);
  });

  it('has every domain in a copy with some replaced, as the cardholder scope and passthrough’s guards make one', () => {
    const upstream = runtime.forRequest({ gatewayLogin: false });
    const accounts = upstream.accounts;
    const kyc = { ...upstream.kyc };
    const copy = withDomains(upstream, { kyc });
    const domains: string[] = [];
    for (const name in copy) domains.push(name);
    expect(domains.sort()).toEqual([...DOMAINS].sort());
    expect(copy.kyc).toBe(kyc);
    expect(upstream.kyc).not.toBe(kyc);
    expect(copy.programCode).toBe('program-1');
    expect(copy.accounts).toBe(accounts);
    expect(copy.cards.list).toBeTypeOf('function');
  });

  it('calls with the token source and scope the request was made with', async () => {
    // No caller token and no gateway login: the call is refused before anything is sent.
    await expect(runtime.forRequest({ gatewayLogin: false }).accounts.balances()).rejects.toBeInstanceOf(NoCredentialsError);
  });
});
