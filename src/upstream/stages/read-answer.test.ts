import { describe, expect, it } from 'vitest';
import type { ContractCheckConfig } from '../../settings/index.ts';
import { createLogger } from '../../platform/logger.ts';
import { accountEndpoints } from '../accounts.ts';
import { UpstreamContractError, UpstreamNotFoundError, UpstreamRateLimitError } from '../errors.ts';
import { NO_OBSERVER } from '../observer.ts';
import { createSharedCallState } from '../shared-call-state.ts';
import { prepareCall } from './call.ts';
import { readAnswer } from './read-answer.ts';

const ACCOUNT = {
  id: 'acc_1',
  account_name: 'Main',
};

function setup(contractCheck: ContractCheckConfig = { mode: 'all', samplePercent: 1 }) {
  const lines: string[] = [];
  const violations: string[] = [];
  const logger = createLogger('info', { write: (line) => lines.push(line) });
  const callState = createSharedCallState({
    contractCheck,
    logger,
    observer: { ...NO_OBSERVER, contractViolation: (endpoint, path) => violations.push(`${endpoint} ${path}`) },
  });
  const call = prepareCall(accountEndpoints.list, {}, { prefix: '', serviceSegment: 'svc' }, 1);
  const read = (statusCode: number, body: unknown, headers: Record<string, string> = {}) => {
    try {
      return readAnswer(call, { statusCode, headers, body }, callState, logger);
    } catch (error) {
      return error;
    }
  };
  return { callState, lines, read, violations };
}

describe('readAnswer', () => {
  it('gives the data of a success envelope as its model parses it', () => {
    const { read } = setup();
    const account = {
      ...ACCOUNT,
      status: 'ACTIVE',
      account_number: '12345678',
      account_holder_name: 'Ava',
      country_code: 'GB',
      institution: null,
      supported_features: [],
      required_features: [],
    };
    expect(read(200, { code: 200, status: 'success', data: [account] })).toMatchObject([
      { id: 'acc_1', accountNumber: '12345678', status: 'ACTIVE' },
    ]);
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

  it('reports a body that is no envelope, and (checking every answer whole) data its model refuses, with the field path, and logs it', () => {
    const { lines, read, violations } = setup();
    const malformed = read(200, 'OK');
    expect(malformed).toBeInstanceOf(UpstreamContractError);
    expect((malformed as UpstreamContractError).issues).toEqual([{ path: '(body)', message: 'the body is not a response envelope' }]);
    const wrong = read(200, { code: 200, status: 'success', data: [ACCOUNT] });
    expect(wrong).toBeInstanceOf(UpstreamContractError);
    expect((wrong as UpstreamContractError).issues.map((issue) => issue.path)).toContain('data[0].status');
    expect(lines.filter((line) => line.includes('"level":50'))).toHaveLength(2);
    expect(violations).toEqual([
      'GET /svc/api/v1/account data[].status',
      'GET /svc/api/v1/account data[].account_number',
      'GET /svc/api/v1/account data[].account_holder_name',
      'GET /svc/api/v1/account data[].country_code',
    ]);
  });

  it('sampling, gives data its model refuses all the same: the broken field fails when read, alone; the check counts it', () => {
    const { lines, read, violations } = setup({ mode: 'sample', samplePercent: 0 });
    const [account] = read(200, { code: 200, status: 'success', data: [{ ...ACCOUNT, status: 'OPEN' }] }) as {
      id: string;
      status: string;
    }[];
    expect(account!.id).toBe('acc_1');
    expect(() => account!.status).toThrow(
      expect.objectContaining({ issues: [{ path: 'data[0].status', message: expect.stringContaining('ACTIVE') }] }),
    );
    // The first answer of the endpoint was checked whole: each broken field counted, warned once.
    expect(violations).toContain('GET /svc/api/v1/account data[].status');
    expect(lines.filter((line) => line.includes('"level":40'))).toHaveLength(violations.length);
    expect(lines.filter((line) => line.includes('"level":50'))).toHaveLength(1);
  });
});
