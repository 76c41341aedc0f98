/** Document 2, sections 2.7 and 2.8: a cardholder's eKYC and its request for information. */

export type KycStatus = 'PENDING' | 'COMPLETED';

export interface KycRecord {
  cardholderId: string;
  status: KycStatus;
  /** Set by POST /sandbox/kyc/{id}/reject; empty when no RFI is open. */
  declinedReason: string;
  addressCodes: string[];
  documentCodes: string[];
}

/** The domain's collections in the store, fresh for each store. */
export function kycCollections() {
  return {
    /** Keyed by cardholder id: one KYC record per cardholder. */
    kyc: new Map<string, KycRecord>(),
  };
}

declare module '../../store.ts' {
  interface SandboxCollections extends ReturnType<typeof kycCollections> {}
}
