import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createMaskError } from './errors.ts';
import { silentLogger } from '../platform/logger.ts';
import {
  UpstreamContractError,
  UpstreamNetworkError,
  UpstreamNotFoundError,
  UpstreamRateLimitError,
  UpstreamRejectedError,
  UpstreamServerError,
  UpstreamUnavailableError,
} from '../upstream/errors.ts';

const mask = createMaskError(silentLogger);
const details = { endpoint: 'GET /svc/api/v1/account', requestId: 'req-1' };
const located = (original: Error) => new GraphQLError(original.message, { path: ['accounts'], originalError: original });

describe('maskError', () => {
  it('masks an unexpected error: no message, no stack, only INTERNAL_SERVER_ERROR', () => {
    const masked = mask(located(new Error('database password is hunter2')), 'Unexpected error.') as GraphQLError;
    expect(masked.message).toBe('Unexpected error.');
    expect(masked.extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(masked.toJSON())).not.toContain('hunter2');
  });

  it('keeps known failures, with their code and the upstream request id, but not the endpoint', () => {
    const refused = mask(located(new UpstreamRejectedError(400, 'Bad currency', details)), 'Unexpected error.') as GraphQLError;
    expect(refused.message).toBe('Bad currency');
    expect(refused.path).toEqual(['accounts']);
    expect(refused.extensions).toEqual({
      code: 'UPSTREAM_ERROR',
      upstreamStatus: 400,
      upstreamMessage: 'Bad currency',
      upstreamRequestId: 'req-1',
    });

    const missing = mask(located(new UpstreamNotFoundError(404, 'Not found', details)), '') as GraphQLError;
    expect(missing.extensions.code).toBe('NOT_FOUND');

    const broken = mask(
      located(new UpstreamContractError([{ path: 'data[0].id', message: 'expected string' }], details)),
      '',
    ) as GraphQLError;
    expect(broken.extensions).toEqual({
      code: 'UPSTREAM_CONTRACT_ERROR',
      upstreamRequestId: 'req-1',
      issues: [{ path: 'data[0].id', message: 'expected string' }],
    });
    expect(broken.message).toBe("The bank's answer breaks its documented contract at data[0].id: expected string");
  });

  it('says why the bank was unavailable, in words that name no host, port or path', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' });
    const cases: [Error, string, Record<string, unknown>][] = [
      [
        new UpstreamServerError(503, 'upstream db at 10.0.0.5 down', details),
        'The bank is not answering: it failed with HTTP 503',
        { reason: 'SERVER_ERROR', upstreamStatus: 503 },
      ],
      [
        new UpstreamNetworkError('ECONNREFUSED', details, { cause }),
        'The bank is not answering: the connection failed',
        { reason: 'NETWORK' },
      ],
      [
        new UpstreamNetworkError('UND_ERR_HEADERS_TIMEOUT', details, { timedOut: true }),
        'The bank is not answering: no answer in time',
        { reason: 'TIMEOUT' },
      ],
      [
        new UpstreamRateLimitError(429, undefined, { ...details, retryAfterMs: 1_500 }),
        'The bank is rate-limiting the gateway: try again shortly',
        { reason: 'RATE_LIMITED', retryAfterSeconds: 2 },
      ],
      [
        new UpstreamUnavailableError('CIRCUIT_OPEN', 'open', details, { retryAfterSeconds: 20 }),
        'open',
        { reason: 'CIRCUIT_OPEN', retryAfterSeconds: 20 },
      ],
    ];
    for (const [error, message, extensions] of cases) {
      const masked = mask(located(error), '') as GraphQLError;
      expect(masked.message).toBe(message);
      expect(masked.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstreamRequestId: 'req-1', ...extensions });
      expect(JSON.stringify(masked.toJSON())).not.toMatch(/127\.0\.0\.1|4010|10\.0\.0\.5|\/svc\/|endpoint/);
    }
  });

  it('passes request-level errors (syntax, validation) through unchanged', () => {
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(mask(syntax, 'Unexpected error.')).toBe(syntax);
  });
});
