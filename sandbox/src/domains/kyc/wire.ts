import type { SandboxStore } from '../../store.ts';
import type { KycRecord } from './types.ts';

const KYC_BASE = 'https://kyc.sandbox.example';

/** Section 2.7. `link`: where a pending cardholder submits documents (or answers an RFI). */
export function kycStatusView(store: SandboxStore, record: KycRecord, link: 'submit' | 'rfi') {
  const completed = record.status === 'COMPLETED';
  // The RFI answer link is given whatever the status; the submission link only while pending.
  const kycLink = link === 'rfi' || !completed ? `${KYC_BASE}/${link}/${record.cardholderId}` : '';
  return {
    kycStatus: record.status,
    kycLink,
    documentType: 'E_KYC',
    complianceStatus: completed ? 'COMPLETED' : 'IN_PROGRESS',
    email: store.cardholders.get(record.cardholderId)?.email ?? '',
  };
}

/** Section 2.8: empty lists and '' when no RFI is open. */
export function rfiView(record: KycRecord) {
  return {
    services_declined_codes: { address: [...record.addressCodes], document: [...record.documentCodes] },
    declined_reason: record.declinedReason,
  };
}
