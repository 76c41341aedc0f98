import type { Domain } from '../../domain.ts';
import { cardholderServices } from './services.ts';
import { cardholderStatusRoute } from './control.ts';
import { cardholderEventDefaults } from './events.ts';
import { cardholderCollections } from './types.ts';
import { completeReview, REVIEW_CARDHOLDER } from './review.ts';
import { cardholderRoutes } from './routes.ts';
import { seedCardholders } from './seed.ts';

/**
 * Endpoints 33 to 37 of Document 2, and the control API's cardholder status. The retired path
 * /svc/api/v1/cardHolders is simply not routed, so it answers 404 like any unknown path.
 */
export const cardholdersDomain: Domain = {
  name: 'cardholders',
  collections: cardholderCollections,
  routes: cardholderRoutes,
  controlRoutes: [cardholderStatusRoute],
  seed: seedCardholders,
  jobs: { [REVIEW_CARDHOLDER]: completeReview },
  eventDefaults: cardholderEventDefaults,
  services: cardholderServices,
};
