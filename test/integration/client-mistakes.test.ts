import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/authentication/api-keys.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { postGraphql } from '../helpers/http.ts';
import { startKit, type Kit } from '../helpers/kit.ts';
import { record, registerSecret } from '../helpers/leak-scan.ts';
import { subscribeSse } from '../helpers/subscribe.ts';

/**
 * A caller's mistakes are its own: a forged credential, a bad cursor, a field it may not read. Each
 * is answered with its code, counted, and logged at info without a stack trace, once per kind and
 * then at most once a minute, so a caller cannot fill the gateway's log, least of all its errors.
 */

const KEY = 'gwk_test-mistakes-key-0123456789abcdef';
registerSecret('a caller API key', KEY);
const lines: Record<string, any>[] = [];
let kit: Kit;

beforeAll(async () => {
  kit = await startKit({
    listen: true,
    metricsToken: 'metrics-secret',
    logger: createLogger('debug', {
      write: (line: string) => (lines.push(JSON.parse(line) as Record<string, any>), record('gateway log', line)),
    }),
    auth: {
      mode: 'service',
      apiKeys: [{ name: 'cards-only', sha256: sha256Hex(KEY), roles: ['cardholder'], cardholderId: 'chd_demo_ava' }],
      jwt: undefined,
      allowedOrigins: [],
    },
  });
});
afterAll(() => kit?.close());

async function metric(name: string, labels: string): Promise<number> {
  const response = await fetch(`${kit.baseUrl}/metrics`, { headers: { authorization: 'Bearer metrics-secret' } });
  const line = (await response.text()).split('\n').find((text) => text.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const logged = (msg: string) => lines.filter((line) => line.msg === msg);

describe("a caller's mistakes", () => {
  it('a forged API key, ten times: ten 401s, ten counted, one log line at info', async () => {
    for (let i = 0; i < 10; i++)
      expect((await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ me { name } }' }, { 'x-api-key': `gwk_forged-${i}` })).status).toBe(
        401,
      );
    expect(await metric('gateway_callers_refused_total', 'reason="invalid"')).toBe(10);
    expect(logged('caller refused').map((line) => [line.level, line.refusal])).toEqual([[30, 'invalid']]);
  });

  it('a bad cursor, three times: the error says what to do, three counted, one line at info without a stack', async () => {
    for (let i = 0; i < 3; i++) {
      const refused = await subscribeSse(
        kit,
        'subscription { cardStatusChanged(after: "not-a-cursor") { status } }',
        {},
        { 'x-api-key': KEY },
        { registered: false },
      );
      const [result] = await refused.next(1);
      expect(result.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'after' });
      await refused.close();
    }
    expect(await metric('gateway_client_errors_total', 'code="BAD_USER_INPUT"')).toBe(3);
    expect(
      logged("a caller's mistake")
        .filter((line) => line.code === 'BAD_USER_INPUT')
        .map((line) => line.level),
    ).toEqual([30]);
  });

  it('a field the caller may not read: FORBIDDEN counted and logged once, the rest answered', async () => {
    for (let i = 0; i < 4; i++) {
      const answer = await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ me { name } balances { currency } }' }, { 'x-api-key': KEY });
      expect(answer.body.data).toEqual({ me: { name: 'cards-only' }, balances: null });
    }
    expect(await metric('gateway_client_errors_total', 'code="FORBIDDEN"')).toBe(4);
    expect(logged("a caller's mistake").filter((line) => line.code === 'FORBIDDEN')).toHaveLength(1);
  });

  it('none of them reached the error log, and no line carries a stack trace', () => {
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([]);
  });
});
