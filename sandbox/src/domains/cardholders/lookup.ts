import { badRequest, found } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import type { CardholderRecord } from './types.ts';

export function findCardholder(store: SandboxStore, id: string): CardholderRecord {
  return found(store.cardholders.get(id), 'Cardholder', id);
}

/** Cards and wallets are issued to READY cardholders only (Document 2, section 3). */
export function readyCardholder(store: SandboxStore, id: string): CardholderRecord {
  const cardholder = findCardholder(store, id);
  if (cardholder.status !== 'READY') throw badRequest(`Cardholder ${id} is not READY`);
  return cardholder;
}
