import { z } from 'zod';
import { builder } from '../builder.ts';
import type { AccessToken } from '../upstream/bank-tokens.ts';
import { UpstreamAuthError, UpstreamRejectedError } from '../upstream/errors.ts';
import { SESSION_ERRORS } from './mutation-errors.ts';

/** Document 1, section 4.1: the login endpoint, for clients that hold their own credentials. */

const AccessTokenType = builder.objectRef<AccessToken>('AccessToken').implement({
  description:
    'A short-lived upstream access token. Send it to this gateway as "Authorization: Bearer <token>" and it is forwarded to the bank instead of the gateway’s own.',
  fields: (t) => ({
    accessToken: t.exposeString('token', { nullable: false, description: 'The bearer token (JWT form).' }),
    tokenType: t.string({ nullable: false, description: 'Always "Bearer".', resolve: () => 'Bearer' }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the token stops working (about 30 minutes after login).',
      resolve: (token) => new Date(token.expiresAt),
    }),
  }),
});

const AccessTokenCreateInput = builder.inputType('AccessTokenCreateInput', {
  description: 'Client credentials issued by the bank.',
  fields: (t) => ({
    clientKey: t.string({ required: true, description: 'Client key.', validate: z.string().min(1, 'must not be empty') }),
    clientSecret: t.string({ required: true, description: 'Client secret.', validate: z.string().min(1, 'must not be empty') }),
    email: t.string({ required: true, description: 'E-mail of the API user (mandatory since 2025-12-20).', validate: z.email('must be an e-mail address') }),
  }),
});

builder.mutationField('accessTokenCreate', (t) =>
  t.field({
    authScopes: { permission: 'session:create' },
    type: AccessTokenType,
    nullable: false,
    description: 'Logs in to the bank with client credentials and returns an access token.',
    errors: { types: SESSION_ERRORS, dataField: { name: 'token', description: 'The new access token.' } },
    args: { input: t.arg({ type: AccessTokenCreateInput, required: true, description: 'The credentials.' }) },
    resolve: async (_root, { input }, context) => {
      try {
        const token = await context.upstream.login(input);
        // The bank just issued it: its user is known, and its first operation needs no proof.
        context.learnBankToken(token.token);
        return token;
      } catch (error) {
        // Wrong credentials are an expected answer to this mutation, not a broken session.
        if (error instanceof UpstreamAuthError) {
          throw new UpstreamRejectedError(error.status, error.upstreamMessage, error);
        }
        throw error;
      }
    },
  }),
);
