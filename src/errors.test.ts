import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createMaskError } from './errors.ts';
import { silentLogger } from './logger.ts';
import { UpstreamContractError, UpstreamNotFoundError, UpstreamRejectedError } from './upstream/errors.ts';

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

  it('keeps known failures, with their code and trace fields', () => {
    const refused = mask(located(new UpstreamRejectedError(400, 'Bad currency', details)), 'Unexpected error.') as GraphQLError;
    expect(refused.message).toBe('Bad currency');
    expect(refused.path).toEqual(['accounts']);
    expect(refused.extensions).toEqual({ code: 'UPSTREAM_ERROR', upstreamStatus: 400, upstreamMessage: 'Bad currency', ...details });

    const missing = mask(located(new UpstreamNotFoundError(404, 'Not found', details)), '') as GraphQLError;
    expect(missing.extensions.code).toBe('NOT_FOUND');

    const broken = mask(located(new UpstreamContractError([{ path: 'data[0].id', message: 'expected string' }], details)), '') as GraphQLError;
    expect(broken.extensions).toMatchObject({ code: 'UPSTREAM_CONTRACT_ERROR', issues: [{ path: 'data[0].id', message: 'expected string' }] });
    expect(broken.message).toBe('Upstream GET /svc/api/v1/account returned a payload that breaks its contract at data[0].id: expected string');
  });

  it('passes request-level errors (syntax, validation) through unchanged', () => {
    const syntax = new GraphQLError('Syntax Error: Expected Name, found <EOF>.');
    expect(mask(syntax, 'Unexpected error.')).toBe(syntax);
  });
});
