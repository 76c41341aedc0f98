import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { cardEndpoints } from '../cards.ts';
import { asError } from '../../platform/as-error.ts';
import { OperationAbandonedError, UpstreamServerError } from '../errors.ts';
import { startOperation } from '../operation.ts';
import { RecordCache } from '../record-cache.ts';
import { webhookEndpoints } from '../webhooks.ts';
import type { Endpoint } from '../endpoint.ts';
import { prepareCall, type CallOptions } from './call.ts';
import { recordCacheStage } from './record-cache-stage.ts';

const TARGET = { prefix: '', serviceSegment: 'svc' };
const setup = () => {
  const cache = new RecordCache({ ttls: { records: 60_000, rates: 60_000, reference: 60_000 }, maxEntries: 10 });
  return { cache, stage: recordCacheStage(cache) };
};
const newCall = (ep: Endpoint<unknown>, options: CallOptions = {}) => prepareCall(ep, options, TARGET, 1);

/** A `next` that counts the calls it makes and answers with their number. */
function bank() {
  const made = { count: 0 };
  return { made, next: async () => ++made.count };
}

describe('recordCacheStage', () => {
  it("answers a kept read again from the cache for the same bank user and request, and not for another user's", async () => {
    const { stage } = setup();
    const { made, next } = bank();
    const balances = (cacheScope: string, currency = 'USD') => newCall(accountEndpoints.balances, { cacheScope, query: { currency } });
    expect(await stage(balances('ava'), next)).toBe(1);
    expect(await stage(balances('ava'), next)).toBe(1);
    expect(await stage(balances('ava', 'EUR'), next)).toBe(2);
    expect(await stage(balances('ben'), next)).toBe(3);
    expect(made.count).toBe(3);
  });

  it('keeps nothing for a read without a bank user, nor for a read its endpoint never keeps', async () => {
    const { cache, stage } = setup();
    const { made, next } = bank();
    await stage(newCall(accountEndpoints.balances), next);
    await stage(newCall(accountEndpoints.balances), next);
    await stage(newCall(webhookEndpoints.catalogue, { cacheScope: 'ava' }), next);
    await stage(newCall(webhookEndpoints.catalogue, { cacheScope: 'ava' }), next);
    expect(made.count).toBe(4);
    expect(cache.stats).toMatchObject({ entries: 0, invalidations: 0 });
  });

  it('drops what a write changes once it is over, even when it failed', async () => {
    const { cache, stage } = setup();
    const { made, next } = bank();
    const card = () => newCall(cardEndpoints.list, { cacheScope: 'ava' });
    const balances = () => newCall(accountEndpoints.balances, { cacheScope: 'ava' });
    await stage(card(), next);
    await stage(balances(), next);
    const update = newCall(cardEndpoints.update, { cacheScope: 'ava', body: {} });
    await expect(stage(update, () => Promise.reject(new UpstreamServerError(503, 'lost', update.details)))).rejects.toBeInstanceOf(
      UpstreamServerError,
    );
    expect(await stage(card(), next)).toBe(3);
    // A card update changes no account: the balances stay kept.
    expect(await stage(balances(), next)).toBe(2);
    expect(made.count).toBe(3);
    expect(cache.stats.invalidations).toBe(1);
  });

  it("reads again when the call it shared was cut by another operation's client leaving", async () => {
    const { stage } = setup();
    const client = new AbortController();
    const leaving = startOperation({ deadline: undefined, client: client.signal });
    const staying = startOperation({ deadline: undefined, client: undefined });
    const cutWhenItLeaves = () =>
      new Promise<string>((_, reject) => leaving.signal.addEventListener('abort', () => reject(asError(leaving.signal.reason))));
    let answer!: (value: string) => void;
    const ownCall = () => new Promise<string>((resolve) => (answer = resolve));
    const first = stage(newCall(accountEndpoints.balances, { cacheScope: 'ava', operation: leaving }), cutWhenItLeaves);
    // The same read while the first is on its way: it joins that call rather than make its own.
    const second = stage(newCall(accountEndpoints.balances, { cacheScope: 'ava', operation: staying }), ownCall);
    client.abort();
    await expect(first).rejects.toBeInstanceOf(OperationAbandonedError);
    answer('its own answer');
    expect(await second).toBe('its own answer');
  });
});
