import type { Domain } from '../domain.ts';
import { beneficiaryRoutes } from './routes.ts';
import { seedBeneficiaries } from './seed.ts';

/** Endpoints 8 to 13 of Document 1: beneficiaries and their validation schema. */
export const beneficiariesDomain: Domain = {
  name: 'beneficiaries',
  routes: beneficiaryRoutes,
  seed: seedBeneficiaries,
};
