import { setMaxListeners } from 'node:events';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import type { BankEvent } from './models.ts';

/**
 * Where accepted bank events go, and the memory of which were seen. In one process both are local;
 * with Redis, events fan out to every gateway instance (Yoga's Redis event target) and "seen" is one
 * shared set, so whichever instance the bank reaches, each event is published exactly once.
 */

export const BANK_EVENT = 'bank:event';

type Topics = { [BANK_EVENT]: [BankEvent] };

export interface EventBus {
  publish(event: BankEvent): void;
  /** Every event published from now on, on any instance. */
  subscribe(): AsyncIterable<BankEvent>;
  /** How many subscriptions are listening in this process (for health and tests). */
  activeSubscriptions(): number;
  /**
   * Ends every open subscription of this process as if its stream had finished: clients get a
   * proper completion (graphql-ws `complete`, the SSE `complete` event) instead of a cut connection.
   */
  endSubscriptions(): Promise<void>;
  /** Resolves once events from other instances can be received (Redis: the channel is subscribed). */
  ready: Promise<void>;
  /** True the first time a key is seen (within the retention window), false for repeats. */
  firstSighting(key: string): Promise<boolean>;
  close(): Promise<void>;
}

type PubSub = ReturnType<typeof createPubSub<Topics>>;

/** The parts every bus shares: publishing, and subscriptions that count themselves while open. */
function channel(pubsub: PubSub): Pick<EventBus, 'publish' | 'subscribe' | 'activeSubscriptions' | 'endSubscriptions'> {
  const open = new Set<() => Promise<unknown>>();
  return {
    publish: (event) => pubsub.publish(BANK_EVENT, event),
    activeSubscriptions: () => open.size,
    endSubscriptions: async () => {
      await Promise.allSettled([...open].map((end) => end()));
    },
    subscribe: () => ({
      [Symbol.asyncIterator]() {
        const source = pubsub.subscribe(BANK_EVENT)[Symbol.asyncIterator]();
        // Ending the source resolves a pending `next` with done, which completes the subscription.
        const end = async (value?: unknown) => {
          open.delete(end);
          return source.return ? source.return(value) : { done: true as const, value: undefined };
        };
        open.add(end);
        const done = () => open.delete(end);
        return {
          next: () => source.next(),
          return: end,
          throw: async (error?: unknown) => {
            done();
            return source.throw ? source.throw(error) : Promise.reject(error);
          },
        };
      },
    }),
  };
}

/** How long an event id is remembered: the bank's retries come well within a day. */
export const DEDUPE_RETENTION_MS = 24 * 60 * 60 * 1000;
const MAX_REMEMBERED = 100_000;

export function createMemoryEventBus(now: () => number = Date.now): EventBus {
  const seen = new Map<string, number>();
  // Every open subscription is one listener: thousands are normal here, not a leak.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  return {
    ...channel(createPubSub<Topics>({ eventTarget })),
    ready: Promise.resolve(),
    async firstSighting(key) {
      const at = now();
      const last = seen.get(key);
      if (last !== undefined && at - last < DEDUPE_RETENTION_MS) return false;
      seen.delete(key);
      seen.set(key, at);
      // Map iteration is insertion order: the first keys are the oldest sightings.
      for (const key of seen.keys()) {
        if (seen.size <= MAX_REMEMBERED) break;
        seen.delete(key);
      }
      return true;
    },
    close: async () => {},
  };
}

export function createRedisEventBus(url: string, logger: Logger): EventBus {
  const options = { lazyConnect: false, maxRetriesPerRequest: 3 };
  const publishClient = new Redis(url, options);
  const subscribeClient = new Redis(url, options);
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', (error) => logger.warn({ err: error }, 'redis connection problem'));
  }
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  // Subscribe the channel now, not at the first subscriber: an instance is ready before anyone listens.
  const ready = subscribeClient.subscribe(BANK_EVENT).then(() => undefined);
  ready.catch((error: unknown) => logger.error({ err: error }, 'could not subscribe to the Redis event channel'));
  return {
    ...channel(createPubSub<Topics>({ eventTarget })),
    ready,
    async firstSighting(key) {
      const answer = await publishClient.set(`bank-event:${key}`, '1', 'PX', DEDUPE_RETENTION_MS, 'NX');
      return answer === 'OK';
    },
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
