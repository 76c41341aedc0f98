import type { Domain } from '../../domain.ts';
import { beneficiaryCollections } from './types.ts';
import { beneficiaryRoutes } from './routes.ts';
import { seedBeneficiaries } from './seed.ts';

/** Endpoints 8 to 13 of Document 1: beneficiaries and their validation schema. */
export const beneficiariesDomain: Domain = {
  name: 'beneficiaries',
  collections: beneficiaryCollections,
  routes: beneficiaryRoutes,
  seed: seedBeneficiaries,
};
