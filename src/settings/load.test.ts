/** loadConfig: the settings it reads with their defaults, and what it refuses outside the caller settings (callers.test.ts). */

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, upstreamFor } from './index.ts';
import { readConfig } from './load.ts';

/** What loadConfig says is wrong with `env`, every problem at once; none when it loads. */
function problems(env: NodeJS.ProcessEnv): string[] {
  const read = readConfig(env);
  return read.ok ? [] : read.problems;
}
describe('loadConfig', () => {
  it('needs nothing: the embedded sandbox is the default upstream', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ server: { port: 4000, host: '0.0.0.0', logLevel: 'info' } });
    expect(config.upstream).toEqual({
      serviceSegment: 'svc',
      timeoutMs: 10_000,
      contractCheck: { mode: 'sample', samplePercent: 1 },
      bank: undefined,
    });
    expect(config.concurrency).toEqual({ initial: 50, min: 4, max: 96, adaptive: true, perClient: 0, sharePercent: 50 });
    expect(config.cache).toEqual({ enabled: true, recordsTtlMs: 30_000, ratesTtlMs: 5_000, referenceTtlMs: 3_600_000, maxEntries: 20_000 });
    expect(config.sandbox).toEqual({ port: 4010, host: '127.0.0.1', latencyMs: 0, webhookSigningSecret: undefined, program: 'CARDS' });
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
      UPSTREAM_CONTRACT_CHECK: 'all',
      UPSTREAM_CONTRACT_SAMPLE_PERCENT: '0.5',
      AUTH_MODE: 'passthrough',
    });
    expect(upstreamFor(config, config.upstream.bank!)).toEqual({
      baseUrl: 'https://bank.example',
      serviceSegment: 'payments',
      directDebitBaseUrl: 'https://bank.example',
      apiKey: 'k',
      productId: 'p',
      userId: 'u',
      credentials: { clientKey: 'ck', clientSecret: 'cs', email: 'ops@bank.example' },
      clientId: 'ck',
      timeoutMs: 2500,
      contractCheck: { mode: 'all', samplePercent: 0.5 },
      concurrency: { initial: 50, min: 4, max: 96, adaptive: true, perClient: 0, sharePercent: 50 },
      cache: { enabled: true, recordsTtlMs: 30_000, ratesTtlMs: 5_000, referenceTtlMs: 3_600_000, maxEntries: 20_000 },
    });
  });

  it('refuses a contract check that is not all, sample or off, and a share outside 0 to 100', () => {
    expect(() => loadConfig({ UPSTREAM_CONTRACT_CHECK: 'some', UPSTREAM_CONTRACT_SAMPLE_PERCENT: '150' })).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /UPSTREAM_CONTRACT_CHECK.*must be one of all, sample, off[\s\S]*UPSTREAM_CONTRACT_SAMPLE_PERCENT.*must be at most 100/,
        ),
      }),
    );
  });

  it('reads the concurrency limit settings, and refuses bounds that cross', () => {
    const config = loadConfig({
      UPSTREAM_INITIAL_CONCURRENCY: '20',
      UPSTREAM_MIN_CONCURRENCY: '2',
      UPSTREAM_MAX_CONCURRENCY: '80',
      UPSTREAM_ADAPTIVE_CONCURRENCY: 'off',
    });
    expect(config.concurrency).toEqual({ initial: 20, min: 2, max: 80, adaptive: false, perClient: 0, sharePercent: 50 });
    expect(() => loadConfig({ UPSTREAM_MIN_CONCURRENCY: '200' })).toThrow(
      'UPSTREAM_MIN_CONCURRENCY (200) must not be above UPSTREAM_MAX_CONCURRENCY (96)',
    );
    expect(() => loadConfig({ UPSTREAM_ADAPTIVE_CONCURRENCY: 'maybe' })).toThrow('UPSTREAM_ADAPTIVE_CONCURRENCY must be true or false');
  });

  it('reads the record cache settings, and names the rule a bad one breaks', () => {
    const config = loadConfig({ UPSTREAM_CACHE: 'false', UPSTREAM_CACHE_RECORDS_TTL_MS: '0', UPSTREAM_CACHE_RATES_TTL_MS: '1000' });
    expect(config.cache).toMatchObject({ enabled: false, recordsTtlMs: 0, ratesTtlMs: 1_000, referenceTtlMs: 3_600_000 });
    expect(() => loadConfig({ UPSTREAM_CACHE_RATES_TTL_MS: '-5' })).toThrow(/UPSTREAM_CACHE_RATES_TTL_MS/);
    expect(() => loadConfig({ UPSTREAM_CACHE_MAX_ENTRIES: '10' })).toThrow(/UPSTREAM_CACHE_MAX_ENTRIES/);
  });

  it('reads the event log retention and the reconcile interval, with their defaults', () => {
    expect(loadConfig({}).events.log).toEqual({ maxEvents: 10_000, maxAgeMs: 86_400_000 });
    expect(loadConfig({}).webhooks.reconcileIntervalMs).toBe(60_000);
    const config = loadConfig({ EVENT_LOG_MAX_EVENTS: '500', EVENT_LOG_MAX_AGE_MS: '3600000', WEBHOOK_RECONCILE_INTERVAL_MS: '15000' });
    expect(config.events.log).toEqual({ maxEvents: 500, maxAgeMs: 3_600_000 });
    expect(config.webhooks.reconcileIntervalMs).toBe(15_000);
    let error: unknown;
    try {
      loadConfig({ EVENT_LOG_MAX_EVENTS: '0', EVENT_LOG_MAX_AGE_MS: 'a day', WEBHOOK_RECONCILE_INTERVAL_MS: '10' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      'WEBHOOK_RECONCILE_INTERVAL_MS must be at least 1000',
      'EVENT_LOG_MAX_EVENTS must be at least 1',
      'EVENT_LOG_MAX_AGE_MS must be a number',
    ]);
  });

  it('reaches Redis by one address or by Sentinels, with the replicas an event must be on before its 202', () => {
    expect(loadConfig({}).events).toMatchObject({ redis: undefined, durability: { minReplicasAck: 0, replicaAckTimeoutMs: 500 } });
    expect(loadConfig({ REDIS_URL: 'rediss://gw:s3cret@redis.example:6380/2' }).events).toMatchObject({
      redis: { url: 'rediss://gw:s3cret@redis.example:6380/2' },
      durability: { minReplicasAck: 0 },
    });
    const sentinel = loadConfig({
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.7:26379,[::1]:26380',
      REDIS_SENTINEL_NAME: 'gateway',
      REDIS_SENTINEL_PASSWORD: 'sp',
      REDIS_PASSWORD: 'rp',
      REDIS_REPLICA_ACK_TIMEOUT_MS: '250',
    });
    expect(sentinel.events.redis).toEqual({
      sentinels: [
        { host: 'sentinel-a', port: 26379 },
        { host: '10.0.0.7', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      name: 'gateway',
      sentinelPassword: 'sp',
      password: 'rp',
    });
    // A Sentinel deployment has replicas: by default an event is on one before its 202.
    expect(sentinel.events.durability).toEqual({ minReplicasAck: 1, replicaAckTimeoutMs: 250 });
    expect(
      loadConfig({ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'g', REDIS_MIN_REPLICAS_ACK: '0' }).events.durability.minReplicasAck,
    ).toBe(0);
  });

  it('refuses Redis settings that conflict, repeat, are malformed or would be ignored, naming each', () => {
    expect(
      problems({ REDIS_SENTINELS: 'a:26379,b,c:0,d:70000,a:26379', REDIS_URL: 'redis://r:6379', REDIS_MIN_REPLICAS_ACK: '-1' }),
    ).toEqual([
      'REDIS_SENTINELS.1 "b" is not host:port (a host name or IP address, then a port 1 to 65535)',
      'REDIS_SENTINELS.2 "c:0" is not host:port (a host name or IP address, then a port 1 to 65535)',
      'REDIS_SENTINELS.3 "d:70000" is not host:port (a host name or IP address, then a port 1 to 65535)',
      'REDIS_MIN_REPLICAS_ACK must be at least 0',
      'REDIS_URL and REDIS_SENTINELS are both set: give one (REDIS_SENTINELS for Redis with Sentinel, REDIS_URL for one Redis or a managed endpoint)',
      'REDIS_SENTINEL_NAME is required with REDIS_SENTINELS (the name in `sentinel monitor <name> ...`)',
      'REDIS_SENTINELS names the Sentinel "a:26379" twice',
    ]);
    expect(
      problems({
        REDIS_URL: 'redis://r:6379',
        REDIS_SENTINEL_NAME: 'g',
        REDIS_SENTINEL_PASSWORD: 'secret-sp',
        REDIS_PASSWORD: 'secret-rp',
      }),
    ).toEqual([
      'REDIS_SENTINEL_NAME is used only with REDIS_SENTINELS (with REDIS_URL, credentials go in the URL)',
      'REDIS_SENTINEL_PASSWORD is used only with REDIS_SENTINELS (with REDIS_URL, credentials go in the URL)',
      'REDIS_PASSWORD is used only with REDIS_SENTINELS (with REDIS_URL, credentials go in the URL)',
    ]);
    // The problems name the variables, never a password's value.
    expect(JSON.stringify(problems({ REDIS_SENTINEL_PASSWORD: 'secret-sp' }))).not.toContain('secret-sp');
  });
  it('serves a Federation subgraph only when asked, and holds its doors to the router where a real bank or trusted documents are', () => {
    expect(loadConfig({}).federation).toEqual({ subgraph: false, routerToken: undefined });
    expect(loadConfig({ FEDERATION_SUBGRAPH: 'true' }).federation).toEqual({ subgraph: true, routerToken: undefined });
    const bank = {
      UPSTREAM_BASE_URL: 'https://bank.example',
      UPSTREAM_API_KEY: 'k',
      UPSTREAM_PRODUCT_ID: 'p',
      UPSTREAM_USER_ID: 'u',
      AUTH_MODE: 'passthrough',
    };
    expect(problems({ ...bank, FEDERATION_SUBGRAPH: 'true' })).toEqual([
      'FEDERATION_ROUTER_TOKEN is required with FEDERATION_SUBGRAPH=true and UPSTREAM_BASE_URL: only your router may use _entities and _service',
    ]);
    expect(problems({ FEDERATION_SUBGRAPH: 'true', TRUSTED_DOCUMENTS: 'true' })).toEqual([
      'FEDERATION_ROUTER_TOKEN is required with FEDERATION_SUBGRAPH=true and TRUSTED_DOCUMENTS: only your router may use _entities and _service',
    ]);
    expect(problems({ FEDERATION_ROUTER_TOKEN: 'secret-router-token' })).toEqual([
      'FEDERATION_ROUTER_TOKEN is used only with FEDERATION_SUBGRAPH=true',
    ]);
    expect(problems({ ...bank, FEDERATION_SUBGRAPH: 'true', FEDERATION_ROUTER_TOKEN: 'secret-router-token' })).toEqual([]);
    expect(problems({ FEDERATION_SUBGRAPH: 'maybe' })).toEqual(['FEDERATION_SUBGRAPH must be true or false']);
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

  it('leaves tracing off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and names the service banking-gateway by default', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'banking-gateway',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example', OTEL_SERVICE_NAME: 'gateway-eu' }).tracing).toEqual({
      endpoint: 'https://otlp.example',
      serviceName: 'gateway-eu',
    });
  });

  it('refuses an OTLP endpoint that is not an http(s) URL, and exporter headers that are not key=value pairs', () => {
    let error: unknown;
    try {
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317', OTEL_EXPORTER_OTLP_HEADERS: 'api-key' });
    } catch (e) {
      error = e;
    }
    expect((error as ConfigError).problems).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL',
      'OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs, comma-separated',
    ]);
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s3cret, x-tenant=acme' }).tracing
        ?.endpoint,
    ).toBe('http://c:4318');
  });

  it('requires the identity headers with a real upstream', () => {
    expect(() => loadConfig({ UPSTREAM_BASE_URL: 'https://bank.example' })).toThrow(
      /UPSTREAM_API_KEY is required when UPSTREAM_BASE_URL is set[\s\S]*UPSTREAM_PRODUCT_ID[\s\S]*UPSTREAM_USER_ID/,
    );
  });
});
