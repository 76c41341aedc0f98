/** The intake flood's gateway process (forked by intake-flood.ts with `npm start`'s heap flags): createGateway with Redis, asked over IPC. */

import { loadConfig, type EventDurability } from '../src/settings/index.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { sandboxUpstreamConfig } from '../src/start/sandbox-upstream.ts';
import { answerRequests } from './child-process.ts';
import type { GatewayRequest } from './gateway-child.ts';

/** The benchmark gateway's start, with Redis. */
type IntakeStart = Pick<Extract<GatewayRequest, { kind: 'start' }>, 'id' | 'kind' | 'sandboxUrl' | 'webhooks'> & {
  redisUrl: string;
  /** The run's own prefix: its stream and seen set are no other run's, and are removed afterwards. */
  redisKeyPrefix: string;
  durability?: EventDurability | undefined;
};

export type IntakeGatewayRequest = IntakeStart | { id: number; kind: 'subscriptions' };

let gateway: Gateway | undefined;

/** Wired as `npm start` wires it with REDIS_URL; resolves with its port once Redis answers. */
async function startGateway(request: IntakeStart): Promise<number> {
  const config = loadConfig(process.env);
  const upstream = { ...sandboxUpstreamConfig({ url: request.sandboxUrl }), concurrency: config.concurrency };
  gateway = createGateway({
    logger: silentLogger,
    upstream,
    webhooks: request.webhooks,
    redis: { url: request.redisUrl },
    eventDurability: request.durability,
    redisKeyPrefix: request.redisKeyPrefix,
    eventLog: config.events.log,
    clientRateLimit: config.clientRateLimit,
  });
  await gateway.events.ready;
  // `ready` also resolves when Redis is known to be away: then the flood would measure only 503s.
  const health = gateway.events.health();
  if (!health?.ok) throw new Error(`the gateway's Redis does not answer: ${health?.detail}`);
  return (await gateway.server.listen(0, '127.0.0.1')).port;
}

answerRequests(
  (request: IntakeGatewayRequest): Promise<unknown> =>
    request.kind === 'start' ? startGateway(request) : Promise.resolve(gateway!.events.activeSubscriptions()),
  () => gateway?.server.stop(1_000),
);
