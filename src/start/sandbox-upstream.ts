import type { UpstreamConfig } from '../settings/index.ts';
import type { Sandbox } from '@banking-gateway/sandbox';
import { DEMO_CREDENTIALS } from '@banking-gateway/sandbox/credentials.ts';

/**
 * How the gateway reaches an embedded sandbox: its URL and demo credentials. One place for
 * `npm start`, the test kit and the benchmark, so they cannot drift apart.
 */
export function sandboxUpstreamConfig(
  sandbox: Pick<Sandbox, 'url'>,
  options: { serviceSegment?: string; timeoutMs?: number; gatewayCredentials?: boolean } = {},
): UpstreamConfig {
  const c = DEMO_CREDENTIALS;
  return {
    baseUrl: sandbox.url,
    serviceSegment: options.serviceSegment ?? 'svc',
    directDebitBaseUrl: sandbox.url,
    apiKey: c.apiKey,
    productId: c.productId,
    userId: c.userId,
    credentials:
      options.gatewayCredentials === false ? undefined : { clientKey: c.clientKey, clientSecret: c.clientSecret, email: c.email },
    clientId: c.clientKey,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}
