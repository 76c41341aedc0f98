import { assertEkycDone, openKyc } from './records.ts';

/** What the KYC domain offers the others, through the core (services.ts). */
export const kycServices = { openKyc, assertEkycDone };

declare module '../../services.ts' {
  interface SandboxServices extends Readonly<typeof kycServices> {}
}
