import type { RecordOf, SandboxStore } from '../../store.ts';
import { startScreening } from './review.ts';
import type { CardholderRecord, CardholderStatus } from './types.ts';

export type CardholderFields = Omit<CardholderRecord, 'id' | 'createdAt' | 'status'>;

export interface Enrolment {
  id: string;
  createdAt: number;
  /** The demo seed sets the states itself and schedules no review. */
  seeded?: { status: CardholderStatus; kyc: RecordOf<'kyc'>['status'] };
}

/**
 * Stores a cardholder with its KYC record. A new one is PENDING and screened; used by Create
 * Cardholder and by the demo seed, so both produce the same records.
 */
export function enrolCardholder(store: SandboxStore, fields: CardholderFields, enrolment: Enrolment): CardholderRecord {
  const { seeded } = enrolment;
  const record: CardholderRecord = { id: enrolment.id, createdAt: enrolment.createdAt, status: seeded?.status ?? 'PENDING', ...fields };
  store.cardholders.set(record.id, record);
  store.services.openKyc(store, record.id, seeded?.kyc ?? 'PENDING');
  if (seeded === undefined) startScreening(store, record, enrolment.createdAt);
  return record;
}
