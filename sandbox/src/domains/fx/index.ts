import type { Domain } from '../../domain.ts';
import { quoteServices } from './services.ts';
import { conversionEventDefaults } from './events.ts';
import { fxCollections } from './types.ts';
import { conversionRoutes } from './conversion-routes.ts';
import { SETTLE_CONVERSION, settleConversion } from './conversions.ts';
import { quoteRoutes } from './quote-routes.ts';
import { rateRoutes } from './rate-routes.ts';
import { seedFx } from './seed.ts';

/** Endpoints 18 to 23 of Document 1: rates, quotes, conversions. */
export const fxDomain: Domain = {
  name: 'fx',
  collections: fxCollections,
  routes: [...rateRoutes, ...quoteRoutes, ...conversionRoutes],
  seed: seedFx,
  jobs: { [SETTLE_CONVERSION]: settleConversion },
  eventDefaults: conversionEventDefaults,
  services: quoteServices,
};
