import { findCardholder, readyCardholder } from './lookup.ts';

/** What the cardholders domain offers the others, through the core (services.ts). */
export const cardholderServices = { findCardholder, readyCardholder };

declare module '../../services.ts' {
  interface SandboxServices extends Readonly<typeof cardholderServices> {}
}
