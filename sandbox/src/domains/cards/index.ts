import type { Domain } from '../../domain.ts';
import { cardEventDefaults, closeCardsOfDeletedCardholder } from './events.ts';
import { cardCollections } from './types.ts';
import { cardRoutes } from './routes.ts';
import { seedCards } from './seed.ts';
import { simulateRoute } from './simulate-route.ts';

/** Endpoints 24 to 32 of Document 2, and the card activity simulation of the control API. */
export const cardsDomain: Domain = {
  name: 'cards',
  collections: cardCollections,
  routes: cardRoutes,
  controlRoutes: [simulateRoute],
  seed: seedCards,
  eventDefaults: cardEventDefaults,
  onEvent: (runtime, event, at) => closeCardsOfDeletedCardholder(runtime.store, event, at),
};
