/**
 * The context src/transport/yoga.ts builds for a request, made in this process for graphql-js `execute`:
 * an API-key caller with the admin role (every check passes, as for an allowed screen).
 */

import { createCardFreezes } from '../src/authorization/card-freezes.ts';
import { createCallerAuth, type CallerAuth } from '../src/authentication/index.ts';
import { sha256Hex } from '../src/authentication/api-keys.ts';
import { fairShareKey, type CallerIdentity } from '../src/authentication/identity.ts';
import { DEFAULT_EVENT_LOG, type ApiKeyConfig, type CallerAuthConfig } from '../src/settings/index.ts';
import type { GatewayContext } from '../src/context.ts';
import { createMemoryEventBus } from '../src/events/bus.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { accessOf } from '../src/authorization/permissions.ts';
import { sandboxUpstreamConfig } from '../src/start/sandbox-upstream.ts';
import { createUpstreamRuntime, type UpstreamRuntime } from '../src/upstream/index.ts';

/** API keys configured for the identity measure; the caller presents the last (each is compared anyway). */
export const CONFIGURED_API_KEYS = 5;

const DAY_MS = 86_400_000;

export const benchApiKey = (index: number): string => `bench-authorization-key-${index}-0123456789abcdef`;

function benchApiKeys(): ApiKeyConfig[] {
  return Array.from({ length: CONFIGURED_API_KEYS }, (_, i) => ({
    name: `bench-${i + 1}`,
    sha256: sha256Hex(benchApiKey(i + 1)),
    roles: ['admin'],
    cardholderId: null,
  }));
}

export function serviceAuthConfig(jwt?: CallerAuthConfig['jwt']): CallerAuthConfig {
  return { mode: 'service', apiKeys: benchApiKeys(), jwt, allowedOrigins: [] };
}

export interface InMemoryWorld {
  runtime: UpstreamRuntime;
  /** A fresh context per operation, as Yoga makes one per request (loaders are per context). */
  context(): GatewayContext;
  /** Cache hits and misses so far. */
  cacheCounts(): { hits: number; misses: number };
  close(): Promise<void>;
}

/**
 * The upstream points at the sandbox with the record cache on and nothing expiring for a day: once a
 * screen has run, every read of it is a hit, so the measured runs make no bank call and no I/O is in the figure.
 */
export function inMemoryWorld(sandboxUrl: string): InMemoryWorld {
  const cache = { enabled: true, recordsTtlMs: DAY_MS, ratesTtlMs: DAY_MS, referenceTtlMs: DAY_MS, maxEntries: 100_000 };
  const runtime = createUpstreamRuntime({ ...sandboxUpstreamConfig({ url: sandboxUrl }), cache }, silentLogger);
  const auth: CallerAuth = createCallerAuth(serviceAuthConfig(), { upstream: runtime, logger: silentLogger });
  const events = createMemoryEventBus({ limits: DEFAULT_EVENT_LOG });
  const cardFreezes = createCardFreezes({ logger: silentLogger });
  const last = benchApiKeys().at(-1)!;
  const caller: CallerIdentity = { kind: 'api-key', name: last.name, access: accessOf({ roles: ['admin'] }) };
  const client = fairShareKey(caller, '127.0.0.1');
  let requests = 0;
  return {
    runtime,
    context: () => {
      const requestId = `bench-authorization-${++requests}`;
      const deadline = Date.now() + runtime.operationDeadlineMs;
      const upstream = runtime.forRequest({ gatewayLogin: true, correlationId: requestId, client, deadline: () => deadline });
      return {
        caller,
        client,
        requestId,
        learnBankToken: auth.learnToken,
        upstream: auth.guardUpstream(caller, upstream, requestId),
        logger: silentLogger.child({ requestId }),
        events,
        cardFreezes,
        webhookCodes: {},
        gatewayWebhooks: { owns: () => false, deliveryUrl: null },
        tracer: undefined,
      };
    },
    cacheCounts: () => {
      const { hits, misses } = runtime.cache!.stats;
      return { hits, misses };
    },
    close: async () => {
      await events.close();
      await runtime.close();
    },
  };
}
