import { describe, expect, it } from 'vitest';
import { accountEndpoints } from '../accounts.ts';
import { loginEndpoint } from '../bank-tokens.ts';
import { InvalidBankIdError } from '../errors.ts';
import { payoutEndpoints } from '../payouts.ts';
import { prepareCall } from './call.ts';

const TARGET = { prefix: '/bank', serviceSegment: 'acme' };

describe('prepareCall', () => {
  it('fills the service segment and path parameters, and keeps null query values out', () => {
    const call = prepareCall(payoutEndpoints.status, { params: { id: 'pay_1' }, query: { page: 2, note: null } }, TARGET, 4);
    expect(call.path).toBe('/bank/acme/api/v1/transfer/payout/pay_1?page=2');
    expect(call.details.endpoint).toBe('GET /svc/api/v1/transfer/payout/{id}');
    expect(call).toMatchObject({ family: 'banking', kind: 'read', maxAttempts: 4, token: undefined, signal: undefined });
  });

  it('refuses an implausible bank id in a path parameter, a query key or an id header, naming it', () => {
    const refused = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof InvalidBankIdError ? error.message : `not an InvalidBankIdError: ${String(error)}`;
      }
      return 'accepted';
    };
    expect(refused(() => prepareCall(payoutEndpoints.status, { params: { id: '../x' } }, TARGET, 1))).toMatch(/^id /);
    expect(refused(() => prepareCall(accountEndpoints.list, { query: { account_id: 'a b' } }, TARGET, 1))).toMatch(/^account_id /);
    expect(refused(() => prepareCall(accountEndpoints.list, { headers: { 'x-account-id': '..' } }, TARGET, 1))).toMatch(/^x-account-id /);
    expect(refused(() => prepareCall(accountEndpoints.list, { query: { account_id: 'acc_1' } }, TARGET, 1))).toBe('accepted');
  });

  it('sends a write with the caller idempotency key as its request id; a login counts as a read', () => {
    const write = prepareCall(payoutEndpoints.create, { idempotencyKey: 'key-1', body: { amount: 1 } }, TARGET, 1);
    expect(write).toMatchObject({ kind: 'write', body: '{"amount":1}', details: { requestId: 'key-1' } });
    const read = prepareCall(accountEndpoints.list, { idempotencyKey: 'key-1' }, TARGET, 1);
    expect(read.details.requestId).not.toBe('key-1');
    expect(prepareCall(loginEndpoint, {}, TARGET, 1)).toMatchObject({ kind: 'read', family: 'auth' });
  });
});
