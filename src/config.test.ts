import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('needs nothing: the embedded sandbox is the default upstream', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 4000, host: '0.0.0.0', logLevel: 'info', upstream: undefined, serviceSegment: 'svc' });
    expect(config.sandbox).toEqual({ port: 4010, latencyMs: 0 });
  });

  it('builds the upstream from its variables, the direct debit base defaulting to the upstream base', () => {
    const config = loadConfig({
      UPSTREAM_BASE_URL: 'https://bank.example/',
      UPSTREAM_API_KEY: 'k',
      UPSTREAM_PRODUCT_ID: 'p',
      UPSTREAM_USER_ID: 'u',
      UPSTREAM_CLIENT_KEY: 'ck',
      UPSTREAM_CLIENT_SECRET: 'cs',
      UPSTREAM_EMAIL: 'ops@bank.example',
      UPSTREAM_SERVICE_SEGMENT: 'payments',
      UPSTREAM_TIMEOUT_MS: '2500',
      AUTH_MODE: 'passthrough',
    });
    expect(config.upstream).toEqual({
      baseUrl: 'https://bank.example',
      serviceSegment: 'payments',
      directDebitBaseUrl: 'https://bank.example',
      apiKey: 'k',
      productId: 'p',
      userId: 'u',
      credentials: { clientKey: 'ck', clientSecret: 'cs', email: 'ops@bank.example' },
      clientId: 'ck',
      timeoutMs: 2500,
      maxConcurrency: 50,
    });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', UPSTREAM_BASE_URL: 'ftp://x', UPSTREAM_CLIENT_KEY: 'ck', UPSTREAM_TIMEOUT_MS: '5' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT must be a number');
    expect(problems).toContain('LOG_LEVEL must be one of');
    expect(problems).toContain('UPSTREAM_BASE_URL must be an http(s) URL');
    expect(problems).toContain('UPSTREAM_TIMEOUT_MS must be at least 100');
    expect(problems).toContain('UPSTREAM_CLIENT_SECRET is required with UPSTREAM_CLIENT_KEY');
    expect(problems).toContain('UPSTREAM_EMAIL is required with UPSTREAM_CLIENT_KEY');
  });

  it('requires the identity headers with a real upstream', () => {
    expect(() => loadConfig({ UPSTREAM_BASE_URL: 'https://bank.example' })).toThrow(
      /UPSTREAM_API_KEY is required when UPSTREAM_BASE_URL is set[\s\S]*UPSTREAM_PRODUCT_ID[\s\S]*UPSTREAM_USER_ID/,
    );
  });
});
