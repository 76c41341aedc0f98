import { badRequest, found } from '../../http.ts';
import { rulesOf, type Program } from '../../program.ts';
import type { SandboxStore } from '../../store.ts';
import type { KycRecord, KycStatus } from './types.ts';

/**
 * Every cardholder has a KYC record from creation, in both programs (only the Cards program
 * has endpoints that show it). It moves only through the control API: complete, or reject
 * with RFI details (it stays PENDING).
 */
export function openKyc(store: SandboxStore, cardholderId: string, status: KycStatus = 'PENDING'): KycRecord {
  const record: KycRecord = { cardholderId, status, declinedReason: '', addressCodes: [], documentCodes: [] };
  store.kyc.set(cardholderId, record);
  return record;
}

/** The cardholder's record; a deleted or unknown cardholder is `Cardholder <id> not found`. */
export function kycOf(store: SandboxStore, cardholderId: string): KycRecord {
  return found(store.kyc.get(cardholderId), 'Cardholder', cardholderId);
}

/** "For programs where eKYC applies, eKYC must be completed before wallet creation and card issuance." */
export function assertEkycDone(
  program: Program,
  store: SandboxStore,
  cardholderId: string,
  purpose: 'card issuance' | 'wallet creation',
): void {
  if (!rulesOf(program).ekycGate) return;
  if (kycOf(store, cardholderId).status !== 'COMPLETED') throw badRequest(`eKYC must be completed before ${purpose}`);
}

// A completed check leaves no open request for information.
export function completeKyc(record: KycRecord): void {
  Object.assign(record, { status: 'COMPLETED', declinedReason: '', addressCodes: [], documentCodes: [] });
}

export interface Rejection {
  reason: string;
  addressCodes: string[];
  documentCodes: string[];
}

export function rejectKyc(record: KycRecord, rejection: Rejection): void {
  if (record.status === 'COMPLETED') throw badRequest(`KYC of cardholder ${record.cardholderId} is already completed`);
  Object.assign(record, { declinedReason: rejection.reason, addressCodes: rejection.addressCodes, documentCodes: rejection.documentCodes });
}
