import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, stdoutLines } from './logger.ts';

describe('log redaction', () => {
  it('never writes a credential, secret, PIN, activation code, card number or variables, at the top or one level down', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const secrets = {
      authorization: 'Bearer s1',
      'x-api-key': 's2',
      apiKey: 's3',
      api_key: 's4',
      client_secret: 's5',
      clientSecret: 's6',
      signingSecret: 's7',
      access_token: 's8',
      accessToken: 's9',
      token: 's10',
      password: 's11',
      pin: 's12',
      activation_code: 's13',
      activationCode: 's14',
      card_number: 's15',
      cardNumber: 's16',
      variables: { pin: 's17' },
    };
    logger.info({ ...secrets, headers: { authorization: 'Bearer s18', 'x-api-key': 's19' }, req: { ...secrets } }, 'everything at once');
    const line = lines.join('');
    expect(line.match(/"s\d+"|s\d+"/g)).toBeNull();
    expect(line.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(34);
    expect(JSON.parse(line)).toMatchObject({
      msg: 'everything at once',
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]' },
    });
  });

  it("redacts the bindings of a child logger, and an error's own secrets, keeping its message", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const error = Object.assign(new Error('refused'), { token: 's1', headers: { authorization: 'Bearer s2' } });
    logger
      .child({ apiKey: 's3', request: { token: 's4' } })
      .child({ requestId: 'r-1' })
      .warn({ err: error }, 'with an error');
    const line = JSON.parse(lines.join('')) as Record<string, unknown>;
    expect(JSON.stringify(line)).not.toMatch(/"s\d"/);
    expect(line).toMatchObject({
      apiKey: '[redacted]',
      request: { token: '[redacted]' },
      requestId: 'r-1',
      err: { message: 'refused', token: '[redacted]', type: 'Error' },
    });
    expect((line.err as { stack: string }).stack).toContain('refused');
  });

  it('changes neither the logged object nor anything in it, and writes a line with no secret as it is', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const fields = { caller: 'ops', upstream: { token: 'kept', path: '/x' }, list: [{ token: 'kept' }] };
    logger.info(fields, 'mixed');
    expect(fields).toEqual({ caller: 'ops', upstream: { token: 'kept', path: '/x' }, list: [{ token: 'kept' }] });
    expect(JSON.parse(lines[0]!)).toMatchObject({
      caller: 'ops',
      upstream: { token: '[redacted]', path: '/x' },
      list: [{ token: 'kept' }],
    });
  });
});

describe('stdoutLines', () => {
  it('writes each line as it is logged, before the next statement: nothing pending to lose', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lines-')), 'out.log');
    const logger = createLogger('info', stdoutLines(file));
    logger.info({ operation: 'Dashboard' }, 'operation executed');
    logger.info({ operation: 'Cards' }, 'operation executed');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { operation: string });
    expect(lines.map((line) => line.operation)).toEqual(['Dashboard', 'Cards']);
  });
});
