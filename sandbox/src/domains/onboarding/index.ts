import type { SandboxStore } from '../../store.ts';
import type { Domain } from '../../domain.ts';
import { onboardingServices } from './services.ts';
import { onboardingEventDefaults } from './events.ts';
import { onboardingCollections } from './types.ts';
import { DEMO_PROFILE } from './profile.ts';
import { demoKycRfi } from './rfis.ts';
import { onboardingRoutes } from './routes.ts';

function seedOnboarding(store: SandboxStore, now: number): void {
  store.userProfile.set('profile', structuredClone(DEMO_PROFILE));
  const rfi = demoKycRfi(now);
  store.accountRfis.set(rfi.id, { id: rfi.id, createdAt: now - 20 * 86_400_000, rfi });
}

/** Endpoints 44 and 45 of Document 2: the business's profile and its RFIs. */
export const onboardingDomain: Domain = {
  name: 'onboarding',
  collections: onboardingCollections,
  routes: onboardingRoutes,
  seed: seedOnboarding,
  eventDefaults: onboardingEventDefaults,
  services: onboardingServices,
};
