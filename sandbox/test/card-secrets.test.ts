import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.ts';
import {
  type ApiResponse,
  CARD_PATH,
  HISTORY_PATH,
  WALLET_PATH,
  apiClient,
  call,
  control,
  issuingHeaders,
  simulate,
  startTestSandbox,
  newEmails,
} from './helpers.ts';

const CARD_NUMBER = '5555555555554444';
const PIN = '907312';
const NEW_PIN = '164208';

let sandbox: Sandbox;
const logLines: string[] = [];
beforeAll(async () => {
  const capture = (obj: object, msg?: string) =>
    logLines.push(`${msg ?? ''} ${JSON.stringify(obj, (_key, value: unknown) => (value instanceof Error ? value.message : value))}`);
  sandbox = await startTestSandbox({ logger: { info: capture, warn: capture } });
});
afterAll(() => sandbox.close());

// A secret counts as leaked where it stands as a number of its own, not inside a longer one.
const contains = (text: string, secret: string): boolean => new RegExp(`(?<!\\d)${secret}(?!\\d)`).test(text);

describe('card secrets', () => {
  it('never appear in a response, a message or a log line of a full flow', async () => {
    const api = await apiClient(sandbox);
    const bodies: string[] = [];
    const seen = (response: ApiResponse): ApiResponse => {
      bodies.push(JSON.stringify(response.body));
      return response;
    };
    const send = async (method: string, path: string, options: Parameters<typeof api.send>[2] = {}) =>
      seen(await api.send(method, path, options));
    const assign = {
      cardholder_id: 'chd_demo_ava',
      card_number: CARD_NUMBER,
      card_currency: 'USD',
      card_mode: 'SINGLE',
      created_by: 'Jordan Miles',
    };

    await send('POST', `${CARD_PATH}/assign`, { body: assign });
    await send('POST', `${CARD_PATH}/assign`, { body: assign }); // already assigned
    await send('POST', `${CARD_PATH}/assign`, { body: { ...assign, card_number: `${CARD_NUMBER.slice(0, -1)}5` } }); // Luhn
    const outbox = await newEmails(sandbox);
    const { cardId, activationCode } = outbox[0]!;
    expect(activationCode).toMatch(/^\d{6}$/);
    // The outbox is the e-mail itself: the one place the code may be read.
    expect(JSON.stringify(outbox)).not.toContain(CARD_NUMBER);

    const wrongCode = activationCode === '000000' ? '111111' : '000000';
    await send('POST', `${CARD_PATH}/activate`, { query: { id: cardId }, body: { activation_code: wrongCode, pin: PIN } });
    await send('POST', `${CARD_PATH}/activate`, { query: { id: cardId }, body: { activation_code: activationCode, pin: '1234567' } });
    await send('POST', `${CARD_PATH}/activate`, { query: { id: cardId }, body: { activation_code: activationCode, pin: PIN } });
    await send('POST', `${CARD_PATH}/pin`, { query: { id: cardId }, body: { pin: NEW_PIN } });
    await send('POST', `${CARD_PATH}/recharge`, { query: { id: cardId }, body: { amount: 25 } });
    seen(await simulate(sandbox, cardId, { kind: 'authorization', amount: 12 }));
    await send('GET', CARD_PATH, { query: { cardholder_id: 'chd_demo_ava' } });
    const detail = await send('GET', `${CARD_PATH}/detail`, { query: { id: cardId } });
    await send('GET', `${CARD_PATH}/transaction`, { query: { id: cardId } });
    await send('GET', HISTORY_PATH);
    seen(
      await call(sandbox, `${WALLET_PATH}/history`, {
        headers: issuingHeaders('wallet', 'chd_demo_ava', { 'x-wallet-id': 'wal_demo_ava' }),
      }),
    );
    seen(await control(sandbox, 'GET', '/requests'));

    expect(detail.body.data[0]).toMatchObject({ card_number: '555555******4444', card_status: 'ACTIVE' });
    expect(bodies.some((body) => body.includes('555555******4444'))).toBe(true);
    expect(logLines.some((line) => line.includes(cardId))).toBe(true); // the e-mail was logged, by card
    const texts = [...bodies, ...logLines, JSON.stringify(sandbox.requests())];
    for (const secret of [CARD_NUMBER, PIN, NEW_PIN, activationCode]) {
      expect(texts.filter((text) => contains(text, secret))).toEqual([]);
    }
    // Nor does the sandbox keep them: the number and PINs live on as digests only.
    const stored = JSON.stringify([...sandbox.store.cards.values()]);
    for (const secret of [CARD_NUMBER, PIN, NEW_PIN]) expect(contains(stored, secret)).toBe(false);
  });
});
