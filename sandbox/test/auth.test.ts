import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS, type Sandbox } from '../src/index.ts';
import {
  ACCOUNT_PATH,
  LOGIN_BODY,
  LOGIN_PATH,
  TOKEN_ERROR,
  call,
  control,
  envelopeError,
  login,
  standardHeaders,
  startTestSandbox,
} from './helpers.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const loginHeaders = { 'x-api-key': DEMO_CREDENTIALS.apiKey, 'content-type': 'application/json' };

function postLogin(body: unknown, headers: Record<string, string | undefined> = loginHeaders) {
  return call(sandbox, LOGIN_PATH, { method: 'POST', headers, body });
}

function decodeSegment(segment: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('POST /api/v1/authentication/login', () => {
  it('issues a JWT-form HS256 token whose expiry_time is epoch seconds 1800 s ahead of the sandbox clock', async () => {
    await control(sandbox, 'POST', '/clock/advance', { days: 3 });
    const nowSeconds = Math.floor(sandbox.clock.now().getTime() / 1000);
    const response = await postLogin(LOGIN_BODY);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Access token generated successfully' });
    expect(response.body.data).toHaveLength(1);
    const { access_token, expiry_time } = response.body.data[0];
    expect(Object.keys(response.body.data[0]).sort()).toEqual(['access_token', 'expiry_time']);
    expect(access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const [header, payload] = (access_token as string).split('.') as [string, string];
    expect(decodeSegment(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeSegment(payload);
    expect(claims.sub).toBe(DEMO_CREDENTIALS.userId);
    expect(Number.isInteger(expiry_time)).toBe(true);
    expect(expiry_time).toBe(claims.exp);
    expect(expiry_time - nowSeconds).toBeGreaterThanOrEqual(1800);
    expect(expiry_time - nowSeconds).toBeLessThanOrEqual(1801);
  });

  it('accepts the e-mail in any letter case', async () => {
    const response = await postLogin({ ...LOGIN_BODY, email: DEMO_CREDENTIALS.email.toUpperCase() });
    expect(response.status).toBe(200);
  });

  it.each([
    ['client_key', { ...LOGIN_BODY, client_key: 'wrong' }],
    ['client_secret', { ...LOGIN_BODY, client_secret: 'wrong' }],
    ['email', { ...LOGIN_BODY, email: 'someone@else.example' }],
  ])('answers 401 for a wrong %s', async (_field, body) => {
    const response = await postLogin(body);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelopeError(401, 'Invalid client credentials'));
  });

  it.each(['client_key', 'client_secret', 'email'])('names a missing %s', async (field) => {
    const body: Record<string, string> = { ...LOGIN_BODY };
    delete body[field];
    const response = await postLogin(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, `${field} is required`));
  });

  it('names a field of the wrong type and an absent body', async () => {
    expect((await postLogin({ ...LOGIN_BODY, email: 42 })).body.message).toBe('email must be a string');
    const empty = await call(sandbox, LOGIN_PATH, { method: 'POST', headers: loginHeaders });
    expect(empty.body).toEqual(envelopeError(400, 'request body must be a JSON object'));
  });

  it('checks only x-api-key and Content-Type', async () => {
    expect((await postLogin(LOGIN_BODY, { ...loginHeaders, 'x-api-key': 'nope' })).body).toEqual(
      envelopeError(401, 'x-api-key is invalid'),
    );
    expect((await postLogin(LOGIN_BODY, { ...loginHeaders, 'x-api-key': undefined })).body).toEqual(
      envelopeError(400, 'x-api-key is a required header and is missing'),
    );
    expect((await postLogin(LOGIN_BODY, { 'x-api-key': DEMO_CREDENTIALS.apiKey })).body).toEqual(
      envelopeError(400, 'Content-Type is a required header and is missing'),
    );
  });
});

describe('bearer tokens', () => {
  async function listAccounts(authorization: string | undefined) {
    const token = await login(sandbox);
    return call(sandbox, ACCOUNT_PATH, { headers: standardHeaders(token, { authorization }) });
  }

  it('expire when the sandbox clock passes expiry_time', async () => {
    const token = await login(sandbox);
    const list = () => call(sandbox, ACCOUNT_PATH, { headers: standardHeaders(token) });

    await control(sandbox, 'POST', '/clock/advance', { seconds: 1799 });
    expect((await list()).status).toBe(200);

    await control(sandbox, 'POST', '/clock/advance', { seconds: 1 });
    const expired = await list();
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(TOKEN_ERROR);
  });

  it('follow the tokenTtlSeconds option', async () => {
    const shortLived = await startTestSandbox({ tokenTtlSeconds: 60 });
    try {
      const token = await login(shortLived);
      shortLived.clock.advance(60_000);
      const response = await call(shortLived, ACCOUNT_PATH, { headers: standardHeaders(token) });
      expect(response.body).toEqual(TOKEN_ERROR);
    } finally {
      await shortLived.close();
    }
  });

  it.each([
    ['absent', undefined],
    ['not a bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
    ['not a JWT', 'Bearer not-a-token'],
  ])('reject an Authorization header that is %s with 401', async (_case, authorization) => {
    const response = await listAccounts(authorization);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(TOKEN_ERROR);
  });

  it('reject a token with a forged signature or altered claims', async () => {
    const token = await login(sandbox);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forgedSignature = `${header}.${payload}.${signature.slice(0, -2)}AA`;
    const claims = decodeSegment(payload);
    const extended = Buffer.from(JSON.stringify({ ...claims, exp: Number(claims.exp) + 3600 })).toString('base64url');
    for (const forged of [forgedSignature, `${header}.${extended}.${signature}`]) {
      const response = await call(sandbox, ACCOUNT_PATH, { headers: standardHeaders(forged) });
      expect(response.body).toEqual(TOKEN_ERROR);
    }
  });

  it('are revoked by a reset', async () => {
    const token = await login(sandbox);
    await control(sandbox, 'POST', '/reset');
    const response = await call(sandbox, ACCOUNT_PATH, { headers: standardHeaders(token) });
    expect(response.body).toEqual(TOKEN_ERROR);
  });
});
