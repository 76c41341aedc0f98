import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiError, ok } from './http.ts';
import type { Route } from './routes.ts';
import { validate } from './validation.ts';

const loginBody = z.object({
  client_key: z.string(),
  client_secret: z.string(),
  email: z.string(),
});

/** Endpoint 1, POST /api/v1/authentication/login (Document 1, sections 4.1 and 5). */
export const loginRoute: Route = {
  method: 'POST',
  path: '/api/v1/authentication/login',
  headers: 'login',
  handler: ({ body, runtime }) => {
    const { client_key, client_secret, email } = validate(loginBody, body);
    const expected = runtime.credentials;
    // E-mail addresses are compared case-insensitively, as mail systems treat them.
    const valid =
      sameSecret(client_key, expected.clientKey) &&
      sameSecret(client_secret, expected.clientSecret) &&
      email.toLowerCase() === expected.email.toLowerCase();
    if (!valid) throw new ApiError(401, 'Invalid client credentials');
    const { token, expiresAt } = runtime.tokens.issue(expected.userId);
    // The unit of expiry_time is "not shown" in the contract: the sandbox answers Unix
    // epoch SECONDS (the JWT `exp` claim), which the gateway relies on.
    return ok([{ access_token: token, expiry_time: expiresAt }], 'Access token generated successfully');
  },
};

// Hashing first gives equal-length buffers, so the comparison time does not leak lengths.
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
