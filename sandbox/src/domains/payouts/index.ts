import type { Domain } from '../../domain.ts';
import { payoutEventDefaults } from './events.ts';
import { payoutCollections } from './types.ts';
import { COMPLETE_PAYOUT, completePayout, PROCESS_PAYOUT, processPayout } from './lifecycle.ts';
import { payoutRoutes } from './routes.ts';
import { seedPayouts } from './seed.ts';

/** Endpoints 14 to 17 of Document 1: scheduled payouts to beneficiaries. */
export const payoutsDomain: Domain = {
  name: 'payouts',
  collections: payoutCollections,
  routes: payoutRoutes,
  seed: seedPayouts,
  jobs: { [PROCESS_PAYOUT]: processPayout, [COMPLETE_PAYOUT]: completePayout },
  eventDefaults: payoutEventDefaults,
};
