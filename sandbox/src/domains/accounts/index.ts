import type { Domain } from '../../domain.ts';
import { depositEventDefaults } from './event-defaults.ts';
import { accountCollections } from './types.ts';
import { accountRoutes } from './account-routes.ts';
import { depositRoute } from './deposits.ts';
import { ledgerRoutes } from './ledger-routes.ts';
import { seedAccounts } from './seed.ts';

/**
 * Endpoints 2 to 7 of Document 1: accounts, balances, transactions, balance history; and
 * deposits arriving from outside (POST /sandbox/deposits, with Document 3's events).
 */
export const accountsDomain: Domain = {
  name: 'accounts',
  collections: accountCollections,
  routes: [...accountRoutes, ...ledgerRoutes],
  controlRoutes: [depositRoute],
  seed: seedAccounts,
  eventDefaults: depositEventDefaults,
};
