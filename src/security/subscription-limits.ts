import type { ExecutionArgs, GraphQLError } from 'graphql';
import { finalAsyncIterator, isAsyncIterable, type Plugin } from 'graphql-yoga';
import { connectionOf, OpenCounts } from './open-counts.ts';
import { refusal } from './refusal.ts';

export interface SubscriptionLimitsConfig {
  /** Subscriptions one caller may hold open on this instance. */
  subscriptionMaxPerCaller: number;
  /** Subscriptions one connection (a WebSocket) may hold open. */
  subscriptionMaxPerConnection: number;
}

export type SubscriptionLimitReason = 'per_caller' | 'per_connection';

function limitError(reason: SubscriptionLimitReason, config: SubscriptionLimitsConfig): GraphQLError {
  const [limit, setting, who] =
    reason === 'per_caller'
      ? [config.subscriptionMaxPerCaller, 'SUBSCRIPTION_MAX_PER_CALLER', 'This caller']
      : [config.subscriptionMaxPerConnection, 'SUBSCRIPTION_MAX_PER_CONNECTION', 'This connection'];
  return refusal('SUBSCRIPTION_LIMIT', `${who} already holds ${limit} open subscriptions (${setting}): end one before starting another`, { limit, reason }, { status: 429 });
}

/**
 * At most so many subscriptions open per caller on this instance and per connection: each holds
 * memory and a place in every event's fan-out, and one WebSocket may carry any number, so a single
 * credential could otherwise open them until the instance runs out of memory. Over a limit the
 * subscription is refused as it starts (SUBSCRIPTION_LIMIT), before anything runs; one that ends
 * (completed, cancelled, its connection gone) frees its place. Registered after the plugin that
 * sets how subscriptions run (shared-execution.ts), so the place is taken around what runs.
 */
export function useSubscriptionLimits(config: SubscriptionLimitsConfig, onRefused: (reason: SubscriptionLimitReason) => void): Plugin {
  const perCaller = new OpenCounts<string>();
  const perConnection = new OpenCounts<object>();
  return {
    onSubscribe: ({ args, subscribeFn, setSubscribeFn, setResultAndStopExecution }) => {
      const context = args.contextValue as { client?: string; request?: Request; req?: { socket?: object } };
      // The context always has it (yoga.ts); `unknown` would count every such caller as one.
      const client = context.client ?? 'unknown';
      const connection = connectionOf(context);
      const reason: SubscriptionLimitReason | undefined =
        perCaller.count(client) >= config.subscriptionMaxPerCaller ? 'per_caller' : perConnection.count(connection) >= config.subscriptionMaxPerConnection ? 'per_connection' : undefined;
      if (reason) {
        onRefused(reason);
        return setResultAndStopExecution({ errors: [limitError(reason, config)] });
      }
      // Held from the check on, so subscriptions started together count each other.
      const hold = (delta: 1 | -1) => {
        perCaller.add(client, delta);
        perConnection.add(connection, delta);
      };
      hold(1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        hold(-1);
      };
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
