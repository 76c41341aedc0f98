import type { ExecutionArgs, GraphQLError } from 'graphql';
import { finalAsyncIterator, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { connectionOf, OpenPlaces, type PlaceRefusal } from './open-counts.ts';
import { refusal } from './refusal.ts';

export interface SubscriptionLimitsConfig {
  /** Subscriptions one caller may hold open on this instance. */
  subscriptionMaxPerCaller: number;
  /** Subscriptions one connection (a WebSocket) may hold open. */
  subscriptionMaxPerConnection: number;
}

function limitError(reason: PlaceRefusal, places: OpenPlaces): GraphQLError {
  const { limit, message } = places.described(
    reason,
    { per_caller: 'SUBSCRIPTION_MAX_PER_CALLER', per_connection: 'SUBSCRIPTION_MAX_PER_CONNECTION' },
    'subscriptions',
  );
  return refusal('SUBSCRIPTION_LIMIT', message, { limit, reason }, { status: 429 });
}

/**
 * At most so many subscriptions open per caller on this instance and per connection: each holds
 * memory and a place in every event's fan-out, and one WebSocket may carry any number, so a single
 * credential could otherwise open them until the instance runs out of memory. Over a limit the
 * subscription is refused as it starts (SUBSCRIPTION_LIMIT), before anything runs; one that ends
 * (completed, cancelled, its connection gone) frees its place. Registered after the plugin that
 * sets how subscriptions run (shared-execution.ts), so the place is taken around what runs.
 */
export function useSubscriptionLimits(config: SubscriptionLimitsConfig, onRefused: (reason: PlaceRefusal) => void): Plugin {
  const places = new OpenPlaces({ perCaller: config.subscriptionMaxPerCaller, perConnection: config.subscriptionMaxPerConnection });
  return {
    onSubscribe: ({ args, subscribeFn, setSubscribeFn, setResultAndStopExecution }) => {
      const context = args.contextValue as { client?: string; request?: Request; req?: { socket?: object } };
      // The context always has it (yoga.ts); `unknown` would count every such caller as one.
      const client = context.client ?? 'unknown';
      const connection = connectionOf(context);
      const reason = places.refusal(client, connection);
      if (reason) {
        onRefused(reason);
        return setResultAndStopExecution({ errors: [limitError(reason, places)] });
      }
      // Held from the check on, so subscriptions started together count each other.
      const release = places.take(client, connection);
      setSubscribeFn(async (subscribeArgs: ExecutionArgs) => {
        try {
          const result = await subscribeFn(subscribeArgs);
          if (!isAsyncIterable(result)) {
            release();
            return result;
          }
          return finalAsyncIterator(result, release);
        } catch (error) {
          release();
          throw error;
        }
      });
    },
  };
}
