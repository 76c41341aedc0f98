import { accountsDomain } from './accounts/index.ts';
import type { Domain } from './domain.ts';

/** Seeding runs in this order, so a domain may rely on the data of those before it. */
export const DOMAINS: readonly Domain[] = [accountsDomain];
