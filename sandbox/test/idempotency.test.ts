import { describe, expect, it } from 'vitest';
import { ACCOUNT_PATH, apiClient, envelopeError, nextRequestId, useSandbox } from './helpers.ts';

const t = useSandbox();

const body = {
  type: 'virtual_account',
  country: 'AU',
  currency: 'AUD',
  label: 'AUD Sales',
  required_features: [{ currency: 'AUD', transfer_method: 'LOCAL' }],
};

const createWith = (requestId: string, payload: unknown = body) =>
  t.api.send('POST', ACCOUNT_PATH, { headers: { 'x-request-id': requestId }, body: payload });

describe('idempotency on x-request-id', () => {
  it('replays the same write without a second account', async () => {
    const key = nextRequestId();
    const first = await createWith(key);
    // Same JSON with keys in another order is the same request.
    const second = await createWith(key, {
      required_features: body.required_features,
      label: body.label,
      currency: 'AUD',
      country: 'AU',
      type: 'virtual_account',
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(t.sandbox.store.accounts.size).toBe(6);
  });

  it('replays concurrent duplicates as one write', async () => {
    const key = nextRequestId();
    const [a, b] = await Promise.all([createWith(key), createWith(key)]);
    expect(b.body).toEqual(a.body);
    expect(t.sandbox.store.accounts.size).toBe(6);
  });

  it('replays the stored reply even after the resource changed', async () => {
    const key = nextRequestId();
    const created = await createWith(key);
    const id = created.body.data[0].id as string;
    await t.api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-account-id': id } });
    const replay = await createWith(key);
    expect(replay.body.data[0].status).toBe('ACTIVE');
    expect(replay.body).toEqual(created.body);
  });

  it('replays a validation error too', async () => {
    const key = nextRequestId();
    const first = await createWith(key, { ...body, type: 'other' });
    const second = await createWith(key, { ...body, type: 'other' });
    expect(first.body.message).toBe('Invalid account type: must be virtual_account');
    expect(second.body).toEqual(first.body);
  });

  it('refuses the key for a different body, method or path', async () => {
    const key = nextRequestId();
    await createWith(key);
    const expected = envelopeError(400, `x-request-id ${key} was already used for a different request`);

    expect((await createWith(key, { ...body, label: 'Other' })).body).toEqual(expected);
    const close = await t.api.send('DELETE', ACCOUNT_PATH, { headers: { 'x-request-id': key, 'x-account-id': 'acc_demo_sgd' } });
    expect(close.status).toBe(400);
    expect(close.body).toEqual(expected);
    expect(t.sandbox.store.accounts.get('acc_demo_sgd')?.account.status).toBe('ACTIVE');
    expect(t.sandbox.store.accounts.size).toBe(6);
  });

  it('ignores the key on reads', async () => {
    const key = nextRequestId();
    await createWith(key);
    const list = await t.api.get(ACCOUNT_PATH, { headers: { 'x-request-id': key } });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(6);
  });

  it('forgets keys on reset', async () => {
    const key = nextRequestId();
    await createWith(key);
    t.sandbox.reset();
    t.api = await apiClient(t.sandbox);
    expect((await createWith(key, { ...body, label: 'After reset' })).status).toBe(200);
  });
});
