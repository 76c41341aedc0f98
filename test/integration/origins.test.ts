import { describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit.ts';

// Issue 15: a web app on an origin not in ALLOWED_ORIGINS is told so on its CORS preflight, not
// refused with a message about CSRF headers.

const preflight = (baseUrl: string, origin: string) =>
  fetch(`${baseUrl}/graphql`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

describe('CORS preflights', () => {
  const kit = useKit({ listen: true, auth: { mode: 'none', apiKeys: [], jwt: undefined, allowedOrigins: ['http://localhost:5173'] } });

  it('refuses an origin not allowed with a message naming ALLOWED_ORIGINS', async () => {
    const response = await preflight(kit.baseUrl!, 'http://localhost:3000');
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({
      errors: [
        {
          message:
            'Origin http://localhost:3000 may not call this gateway: add it to ALLOWED_ORIGINS (comma-separated origins, or * for any).',
          extensions: { code: 'ORIGIN_NOT_ALLOWED' },
        },
      ],
    });
  });

  it('answers an allowed origin with its CORS headers', async () => {
    const response = await preflight(kit.baseUrl!, 'http://localhost:5173');
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-headers')).toContain('content-type');
  });
});
