import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamContractError, UpstreamNotFoundError, UpstreamRateLimitError } from '../errors.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { prepareCall } from './call.ts';
import { readAnswer } from './read-answer.ts';

const ACCOUNT = {
  id: 'acc_1',
  account_name: 'Main',
};

function setup() {
  const lines: string[] = [];
  const callState = createSharedCallState();
  const logger = createLogger('info', { write: (line) => lines.push(line) });
  const call = prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 1);
  const read = (statusCode: number, body: unknown, headers: Record<string, string> = {}) => {
    try {
      return readAnswer(call, { statusCode, headers, body }, callState.rateLimitHolds, logger);
    } catch (error) {
      return error;
    }
  };
  return { callState, lines, read };
}

describe('readAnswer', () => {
  it('gives the data of a success envelope as its model parses it', () => {
    const { read } = setup();
    const account = { ...ACCOUNT, status: 'ACTIVE', account_number: '12345678', account_holder_name: 'Ava', country_code: 'GB', institution: null, supported_features: [], required_features: [] };
    expect(read(200, { code: 200, status: 'success', data: [account] })).toMatchObject([{ id: 'acc_1', accountNumber: '12345678', status: 'ACTIVE' }]);
  });

  it('turns an error envelope into the typed error of its status, carrying the bank message', () => {
    const { read } = setup();
    const error = read(404, { code: 404, status: 'Error', message: 'Account not found' });
    expect(error).toBeInstanceOf(UpstreamNotFoundError);
    expect(error).toMatchObject({ status: 404, upstreamMessage: 'Account not found' });
  });

  it('holds the family for a 429 with Retry-After', () => {
    const { callState, read } = setup();
    expect(read(429, { code: 429, status: 'Error', message: 'slow down' }, { 'retry-after': '2' })).toBeInstanceOf(UpstreamRateLimitError);
    expect(callState.rateLimitHolds.heldUntil('banking')).toBeGreaterThan(Date.now() + 1_000);
  });

  it('reports a body that is no envelope, and data its model refuses, with the field path, and logs it', () => {
    const { lines, read } = setup();
    const malformed = read(200, 'OK');
    expect(malformed).toBeInstanceOf(UpstreamContractError);
    expect((malformed as UpstreamContractError).issues).toEqual([{ path: '(body)', message: 'the body is not a response envelope' }]);
    const wrong = read(200, { code: 200, status: 'success', data: [ACCOUNT] });
    expect(wrong).toBeInstanceOf(UpstreamContractError);
    expect((wrong as UpstreamContractError).issues.map((issue) => issue.path)).toContain('data[0].status');
    expect(lines.filter((line) => line.includes('"level":50'))).toHaveLength(2);
  });
});
