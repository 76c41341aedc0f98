import { readdirSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { EVENTS, kindsChangedBy, kindsChangedByEvent } from './cache-policy.ts';
import { endpoint, endpointName, type Endpoint } from './endpoint.ts';
import { kycEndpoints } from './kyc.ts';
import { webhookEndpoints } from './webhooks.ts';

/** Every endpoint of the domain tables (src/upstream/*.ts), found as the tables hold them. */
async function allEndpoints(): Promise<Endpoint<unknown>[]> {
  const found = new Map<string, Endpoint<unknown>>();
  const walk = (value: unknown, depth: number): void => {
    if (!value || typeof value !== 'object' || depth > 3) return;
    const candidate = value as Partial<Endpoint<unknown>>;
    if (typeof candidate.method === 'string' && typeof candidate.path === 'string' && candidate.data) {
      found.set(endpointName(candidate as Endpoint<unknown>), candidate as Endpoint<unknown>);
      return;
    }
    for (const child of Object.values(value)) walk(child, depth + 1);
  };
  for (const file of readdirSync(new URL('.', import.meta.url))) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    walk(await import(`./${file}`), 0);
  }
  return [...found.values()];
}

describe('the cache policy of the endpoints', () => {
  it('is declared by every endpoint: each read is kept or says never, each other call names what it changes', async () => {
    const endpoints = await allEndpoints();
    expect(endpoints.length).toBeGreaterThanOrEqual(55);
    const undeclared = endpoints.filter((ep) => (ep.cache === undefined) === (ep.changes === undefined)).map(endpointName);
    expect(undeclared).toEqual([]);
    // A GET is a read unless it says what it changes (the KYC RFI answer is a GET that writes).
    const readsWithoutPolicy = endpoints
      .filter((ep) => ep.method === 'GET' && ep.cache === undefined && !ep.changes?.length)
      .map(endpointName);
    expect(readsWithoutPolicy).toEqual([]);
    const keptNotGet = endpoints.filter((ep) => typeof ep.cache === 'object' && ep.method !== 'GET').map(endpointName);
    expect(keptNotGet).toEqual([]);
  });

  it('makes forgetting the policy a type error', () => {
    // @ts-expect-error: an endpoint must say whether it is kept (`cache`) or what it changes (`changes`).
    const forgotten = endpoint({ method: 'GET', path: '/new', headers: 'standard', data: z.null() });
    // Past the type checker, an endpoint that declares neither drops everything once it is over.
    expect(kindsChangedBy(forgotten)).toContain('cards');
  });

  it('drops everything for a write or an event it does not know, and nothing for a read it does not keep', () => {
    const undeclaredWrite = { method: 'POST', path: '/something/new' } as unknown as Endpoint<unknown>;
    expect(kindsChangedBy(undeclaredWrite)).toContain('cards');
    expect(kindsChangedBy(undeclaredWrite)).toContain('accounts');
    // A read the cache does not keep changes nothing (the webhook reconciler reads the catalogue every minute).
    expect(kindsChangedBy(webhookEndpoints.catalogue)).toEqual([]);
    // A GET that writes is named: it drops what it changes.
    expect(kindsChangedBy(kycEndpoints.rfiRespond)).toEqual(['kyc', 'cardholders']);
    expect(kindsChangedByEvent('brand.new')).toContain('payouts');
    expect(kindsChangedByEvent('deposit.settled')).toEqual(['accounts', 'direct-debit']);
    expect(kindsChangedByEvent('issuing.card.blocked')).toContain('cards');
    expect(EVENTS.every((entry) => entry.prefix.endsWith('.') || entry.prefix.endsWith('_'))).toBe(true);
  });
});
