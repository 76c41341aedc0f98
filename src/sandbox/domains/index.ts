import { accountsDomain } from './accounts/index.ts';
import { beneficiariesDomain } from './beneficiaries/index.ts';
import type { Domain } from './domain.ts';
import { fxDomain } from './fx/index.ts';
import { payoutsDomain } from './payouts/index.ts';

/** Seeding runs in this order, so a domain may rely on the data of those before it. */
export const DOMAINS: readonly Domain[] = [accountsDomain, beneficiariesDomain, fxDomain, payoutsDomain];
