import { businessProfile } from './profile.ts';

/** What the onboarding domain offers the others, through the core (services.ts). */
export const onboardingServices = { businessProfile };

declare module '../../services.ts' {
  interface SandboxServices extends Readonly<typeof onboardingServices> {}
}
