import { accountsDomain } from './accounts/index.ts';
import { beneficiariesDomain } from './beneficiaries/index.ts';
import { cardholdersDomain } from './cardholders/index.ts';
import { cardsDomain } from './cards/index.ts';
import { directDebitDomain } from './direct-debit/index.ts';
import type { Domain } from '../domain.ts';
import type { EventPayloads } from '../events/bus.ts';
import type { EventName } from '../events/catalogue.ts';
import type { SandboxServices } from '../services.ts';
import { cardholderServices } from './cardholders/services.ts';
import { quoteServices } from './fx/services.ts';
import { kycServices } from './kyc/services.ts';
import { onboardingServices } from './onboarding/services.ts';
import { walletServices } from './wallets/services.ts';
import { fxDomain } from './fx/index.ts';
import { kycDomain } from './kyc/index.ts';
import { onboardingDomain } from './onboarding/index.ts';
import { payoutsDomain } from './payouts/index.ts';
import { walletsDomain } from './wallets/index.ts';
import { webhooksDomain } from './webhooks/index.ts';

/**
 * Seeding runs in this order, so a domain may rely on the data of those before it: cards
 * needs the cardholders (and posts a wallet load to the ledger after the FX seed's movements);
 * direct debit settles its demo payouts after every other seeded movement.
 */
export const DOMAINS: readonly Domain[] = [
  accountsDomain,
  beneficiariesDomain,
  fxDomain,
  payoutsDomain,
  cardholdersDomain,
  kycDomain,
  walletsDomain,
  cardsDomain,
  onboardingDomain,
  webhooksDomain,
  directDebitDomain,
];

// Fails to compile when the domains' event payloads (their events.ts) and the catalogue name different events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _PAYLOADS_COVER_CATALOGUE: Same<keyof EventPayloads, EventName> = true;

// Fails to compile when a service a domain declares (services.ts) has no provider here.
export const SERVICES = {
  ...cardholderServices,
  ...kycServices,
  ...walletServices,
  ...quoteServices,
  ...onboardingServices,
} satisfies SandboxServices;
