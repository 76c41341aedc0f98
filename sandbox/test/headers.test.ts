import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.ts';
import { ACCOUNT_PATH, BALANCE_PATH, call, envelopeError, login, standardHeaders, startTestSandbox } from './helpers.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await login(sandbox);
});
afterAll(() => sandbox.close());

const get = (headers: Record<string, string | undefined>) => call(sandbox, BALANCE_PATH, { headers: standardHeaders(token, headers) });

describe('standard headers', () => {
  it('accept a complete set', async () => {
    expect((await get({})).status).toBe(200);
  });

  it.each(['x-api-key', 'x-product-id', 'x-request-id', 'x-user-id', 'Content-Type'])('answer 400 naming a missing %s', async (name) => {
    const response = await get({ [name.toLowerCase()]: undefined });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, `${name} is a required header and is missing`));
  });

  it('treat a blank header as missing', async () => {
    const response = await get({ 'x-user-id': '  ' });
    expect(response.body).toEqual(envelopeError(400, 'x-user-id is a required header and is missing'));
  });

  it('report missing headers one at a time in documented order', async () => {
    const response = await get({ 'x-user-id': undefined, 'x-product-id': undefined });
    expect(response.body.message).toBe('x-product-id is a required header and is missing');
  });

  it('answer 401 for a wrong x-api-key', async () => {
    const response = await get({ 'x-api-key': 'stolen-key' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelopeError(401, 'x-api-key is invalid'));
  });

  it.each(['x-product-id', 'x-user-id'])('answer 400 when %s is not the configured one', async (name) => {
    const response = await get({ [name]: 'someone-else' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, `${name} is invalid`));
  });

  it('require application/json as Content-Type, also on GET, parameters allowed', async () => {
    const wrong = await get({ 'content-type': 'text/plain' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(envelopeError(400, 'Content-Type must be application/json'));
    expect((await get({ 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('apply to writes too', async () => {
    const response = await call(sandbox, ACCOUNT_PATH, {
      method: 'POST',
      headers: standardHeaders(token, { 'x-request-id': undefined }),
      body: {},
    });
    expect(response.body).toEqual(envelopeError(400, 'x-request-id is a required header and is missing'));
  });
});
