import type { Domain } from '../../domain.ts';
import { directDebitEventDefaults } from './events.ts';
import { directDebitCollections } from './types.ts';
import { directDebitControlRoutes } from './control.ts';
import { DIRECT_DEBIT_JOBS } from './lifecycle.ts';
import { directDebitRoutes } from './routes.ts';
import { seedDirectDebits } from './seed.ts';

/**
 * Endpoints 51 to 57 of Document 3: global accounts, direct debit mandates and direct debit
 * payouts, with the payouts' lifecycle on the sandbox clock, collections and disputes
 * simulated through the control API, and a status event on every change.
 */
export const directDebitDomain: Domain = {
  name: 'direct-debit',
  collections: directDebitCollections,
  routes: directDebitRoutes,
  controlRoutes: directDebitControlRoutes,
  seed: seedDirectDebits,
  jobs: DIRECT_DEBIT_JOBS,
  eventDefaults: directDebitEventDefaults,
};
