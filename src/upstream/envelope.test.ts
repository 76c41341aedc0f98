import { describe, expect, it } from 'vitest';
import { readBareBody, readEnvelope } from './envelope.ts';
import { z } from 'zod';
import { anyCaseEnum, currencyCode, decimal, maskCardNumber, maskCardNumbersIn, orNull, upstreamDateTime } from './models.ts';
import { parseRetryAfter } from './retry-policy.ts';

describe('readEnvelope', () => {
  it.each(['success', 'Success', 'SUCCESS'])('accepts status %s', (status) => {
    expect(readEnvelope(200, { code: 200, status, message: 'ok', data: [1] })).toEqual({ ok: true, data: [1], message: 'ok' });
  });

  it('reads an Error envelope as a failure with its code and message', () => {
    expect(readEnvelope(400, { code: 400, status: 'Error', message: 'bad', data: null })).toEqual({
      ok: false,
      status: 400,
      message: 'bad',
    });
  });

  it('treats an Error envelope inside HTTP 200 as a failure', () => {
    expect(readEnvelope(200, { code: 400, status: 'Error', message: 'nope' })).toEqual({ ok: false, status: 400, message: 'nope' });
  });

  it('accepts a numeric code sent as a string', () => {
    expect(readEnvelope(200, { code: '200', status: 'success', message: 'ok', data: null }).ok).toBe(true);
  });

  it('flags a success body that is not an envelope', () => {
    expect(readEnvelope(200, 'hello')).toEqual({ ok: 'malformed', reason: 'the body is not a response envelope' });
    expect(readEnvelope(200, { status: 'maybe', data: 1 })).toEqual({ ok: 'malformed', reason: 'unknown envelope status "maybe"' });
  });

  it.each([
    ['an array', [{ code: 200 }]],
    ['null', null],
    ['a code that is neither number nor text', { code: true, status: 'success', data: 1 }],
    ['a status that is not text', { code: 200, status: 1, data: 1 }],
    ['a message that is not text', { code: 200, status: 'success', message: { text: 'ok' }, data: 1 }],
  ])('holds the envelope to its rule: %s is no envelope', (_, body) => {
    expect(readEnvelope(200, body)).toEqual({ ok: 'malformed', reason: 'the body is not a response envelope' });
    expect(readEnvelope(502, body)).toEqual({ ok: false, status: 502, message: undefined });
  });

  it('takes what the rule leaves open: no code, a null message, no data, keys of its own', () => {
    expect(readEnvelope(200, { status: 'success', message: null, extra: 1 })).toEqual({ ok: true, data: undefined, message: undefined });
    expect(readEnvelope(200, {})).toEqual({ ok: true, data: undefined, message: undefined });
  });
});

describe('readBareBody (Document 3 has no envelope)', () => {
  it('takes a 2xx body as the data, whatever its shape', () => {
    expect(readBareBody(200, true)).toEqual({ ok: true, data: true, message: undefined });
    expect(readBareBody(200, [{ a: 1 }])).toEqual({ ok: true, data: [{ a: 1 }], message: undefined });
  });

  it('reads an error text from message, error or code', () => {
    expect(readBareBody(400, { code: 'invalid_operation' })).toEqual({
      ok: false,
      status: 400,
      message: 'invalid_operation',
      code: 'invalid_operation',
    });
    expect(readBareBody(400, { code: 'invalid_operation', message: 'Only GBP' })).toEqual({
      ok: false,
      status: 400,
      message: 'Only GBP',
      code: 'invalid_operation',
    });
    expect(readBareBody(404, { message: 'No such mandate' })).toEqual({
      ok: false,
      status: 404,
      message: 'No such mandate',
      code: undefined,
    });
    expect(readBareBody(500, undefined)).toEqual({ ok: false, status: 500, message: undefined, code: undefined });
  });
});

describe('payload building blocks', () => {
  it('turns numbers and numeric strings into exact decimal text', () => {
    expect(decimal.parse(1250.5)).toBe('1250.5');
    expect(decimal.parse('0012.30')).toBe('12.3');
    expect(decimal.parse('1000.00')).toBe('1000');
    expect(decimal.parse('-0.50')).toBe('-0.5');
    expect(decimal.parse(1e-7)).toBe('0.0000001');
    expect(decimal.parse(-3)).toBe('-3');
    expect(decimal.safeParse('12,30').success).toBe(false);
  });

  it('normalises the upstream date-time forms to one instant', () => {
    const expected = '2026-01-05T10:00:00.000Z';
    for (const form of [
      '2026-01-05T10:00:00+0000',
      '2026-01-05T10:00:00.000+0000',
      '2026-01-05T18:00:00+0800',
      '2026-01-05T10:00:00Z',
      '2026-01-05T10:00:00',
    ]) {
      expect(upstreamDateTime.parse(form).toISOString()).toBe(expected);
    }
    expect(upstreamDateTime.safeParse('yesterday').success).toBe(false);
  });

  it('reads a field the upstream may omit or send as null as null, and still checks a value it sends', () => {
    const model = z.object({ name: orNull(z.string()), amount: orNull(decimal) });
    expect(model.parse({})).toEqual({ name: null, amount: null });
    expect(model.parse({ name: null, amount: undefined })).toEqual({ name: null, amount: null });
    expect(model.parse({ name: 'Ava', amount: '10.50' })).toEqual({ name: 'Ava', amount: '10.5' });
    const refused = model.safeParse({ name: 7, amount: '12,30' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'Invalid input: expected string, received number'],
      ['amount', 'must be decimal text'],
    ]);
  });

  it('reads an enum in any case, trimmed, with its aliases, and names the values allowed when it is none of them', () => {
    const type = anyCaseEnum(['VIRTUAL', 'PHYSICAL'], { aliases: { PHY: 'PHYSICAL' } });
    expect(type.parse(' virtual ')).toBe('VIRTUAL');
    expect(type.parse('phy')).toBe('PHYSICAL');
    expect(anyCaseEnum(['w', 'n'], { lowerCase: true }).parse('W')).toBe('w');
    const refused = z.object({ type }).safeParse({ type: 'plastic' });
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['type', 'Invalid option: expected one of "VIRTUAL"|"PHYSICAL"'],
    ]);
  });

  it('reads a currency code in any case and refuses one of another length, by its rule', () => {
    expect(currencyCode.parse(' usd')).toBe('USD');
    expect(currencyCode.safeParse('US').error?.issues[0]?.message).toBe('must be a 3-letter currency code');
    expect(decimal.safeParse(Number.POSITIVE_INFINITY).error?.issues[0]?.message).toBe('must be a finite number');
    expect(decimal.safeParse(true).error?.issues[0]?.message).toBe('must be a decimal number or decimal text');
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', Date.parse('2026-11-21T10:00:00Z'))).toBe(5000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('card numbers', () => {
  it('masks a full number to first 6 and last 4, and leaves a masked one alone', () => {
    expect(maskCardNumber('4242424242424242')).toBe('424242******4242');
    expect(maskCardNumber('4242 4242 4242 4242')).toBe('424242******4242');
    expect(maskCardNumber('424242******4242')).toBe('424242******4242');
    expect(maskCardNumber('VIRTUAL')).toBe('VIRTUAL');
  });

  it('masks numbers inside free text', () => {
    expect(maskCardNumbersIn('card 5555555555554444 is already assigned')).toBe('card 555555******4444 is already assigned');
    expect(maskCardNumbersIn('amount 1000 on 2026-11-21')).toBe('amount 1000 on 2026-11-21');
  });
});
