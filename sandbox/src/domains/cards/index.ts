import type { Domain } from '../../domain.ts';
import { cardEventDefaults } from './events.ts';
import { cardCollections } from './types.ts';
import { cardRoutes } from './routes.ts';
import { seedCards } from './seed.ts';
import { simulateRoute } from './simulate-route.ts';
import { cardStatusRoute } from './status-route.ts';
import { closeCardsOfDeletedCardholder } from './status.ts';

/** Endpoints 24 to 32 of Document 2, and the control API's card activity and card status. */
export const cardsDomain: Domain = {
  name: 'cards',
  collections: cardCollections,
  routes: cardRoutes,
  controlRoutes: [simulateRoute, cardStatusRoute],
  seed: seedCards,
  eventDefaults: cardEventDefaults,
  onEvent: (runtime, event, at) => closeCardsOfDeletedCardholder(runtime.store, event, at),
};
