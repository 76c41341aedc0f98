import type { Domain } from '../../domain.ts';
import { walletServices } from './services.ts';
import { walletCollections } from './types.ts';
import { walletRoutes } from './routes.ts';

/**
 * Endpoints 38 to 40 of Document 2 (Cards program). The demo wallet is seeded by the cards
 * domain, which loads it through a card.
 */
export const walletsDomain: Domain = {
  name: 'wallets',
  collections: walletCollections,
  routes: walletRoutes,
  services: walletServices,
};
