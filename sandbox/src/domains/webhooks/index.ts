import type { Domain } from '../../domain.ts';
import { webhookControlRoutes } from './control.ts';
import { publishEvent } from './fanout.ts';
import { webhookCollections } from './types.ts';
import { webhookRoutes } from './routes.ts';

/**
 * Endpoints 46 to 50 of Document 3: webhook subscriptions. What is delivered to them is the
 * events module's (sandbox/src/events/); fanout.ts picks the subscribers of each event.
 */
export const webhooksDomain: Domain = {
  name: 'webhooks',
  collections: webhookCollections,
  routes: webhookRoutes,
  controlRoutes: webhookControlRoutes,
  onEvent: (runtime, event, at) => void publishEvent(runtime, event, at),
};
