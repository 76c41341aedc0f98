import type { Domain } from '../../domain.ts';
import { kycServices } from './services.ts';
import { kycCollections } from './types.ts';
import { kycControlRoutes } from './control.ts';
import { kycRoutes } from './routes.ts';

/** Endpoints 41 to 43 of Document 2 (Cards program). Records are opened with each cardholder. */
export const kycDomain: Domain = {
  name: 'kyc',
  collections: kycCollections,
  routes: kycRoutes,
  controlRoutes: kycControlRoutes,
  services: kycServices,
};
