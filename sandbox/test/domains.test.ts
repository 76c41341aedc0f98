import { describe, expect, it } from 'vitest';
import { DOMAINS, SERVICES } from '../src/domains/index.ts';
import { EVENT_NAMES } from '../src/events/catalogue.ts';
import { createStore } from '../src/store.ts';

describe('the domains as they register with the core', () => {
  it('give every catalogue event exactly one default for POST /sandbox/events', () => {
    const owners = EVENT_NAMES.map((name) => ({
      name,
      domains: DOMAINS.filter((domain) => domain.eventDefaults?.[name] !== undefined).map((domain) => domain.name),
    }));
    expect(owners.filter(({ domains }) => domains.length !== 1)).toEqual([]);
  });

  it("bring their own collections, each named once; the ledger and the outbox are the core's", () => {
    const byDomain = Object.fromEntries(DOMAINS.map((domain) => [domain.name, Object.keys(domain.collections?.() ?? {})]));
    expect(byDomain).toEqual({
      accounts: ['accounts', 'transactions'],
      beneficiaries: ['beneficiaries'],
      fx: ['quotes', 'conversions'],
      payouts: ['payouts'],
      cardholders: ['cardholders'],
      kyc: ['kyc'],
      wallets: ['wallets', 'walletHistory'],
      cards: ['cards', 'cardRequests', 'cardTransactions'],
      onboarding: ['userProfile', 'accountRfis'],
      webhooks: ['webhookSubscriptions'],
      'direct-debit': ['globalAccounts', 'mandates', 'directDebits'],
    });
    const store = createStore(
      DOMAINS.flatMap((domain) => (domain.collections ? [domain.collections] : [])),
      null,
    );
    const maps = Object.entries(store)
      .filter(([, value]) => value instanceof Map)
      .map(([name]) => name);
    expect(maps.sort()).toEqual([...Object.values(byDomain).flat(), 'balanceHistory', 'balances', 'emails', 'jobs'].sort());
  });

  it('have distinct names and job kinds', () => {
    expect(new Set(DOMAINS.map((domain) => domain.name)).size).toBe(DOMAINS.length);
    const kinds = DOMAINS.flatMap((domain) => Object.keys(domain.jobs ?? {}));
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('hand the core every service they declare, each from one domain', () => {
    const offered = DOMAINS.flatMap((domain) => Object.keys(domain.services ?? {}));
    expect(new Set(offered).size).toBe(offered.length);
    expect(offered.sort()).toEqual(Object.keys(SERVICES).sort());
    expect(offered).toContain('readyCardholder');
  });
});
