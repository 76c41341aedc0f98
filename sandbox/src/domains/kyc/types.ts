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
