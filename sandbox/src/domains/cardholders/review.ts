import { cardholderData } from './events.ts';
import type { WebhookEvent } from '../../events/bus.ts';
import { cancelJob, scheduleJob, type JobHandler } from '../../scheduler.ts';
import type { SandboxStore } from '../../store.ts';
import type { CardholderRecord } from './types.ts';

/**
 * Name screening (Document 2, section 3): a new cardholder, or one whose name changed, is
 * PENDING and passes review REVIEW_DELAY_MS later on the sandbox clock. The delay is the
 * sandbox's choice; the document shows none.
 */
export const REVIEW_CARDHOLDER = 'cardholder.review';
const REVIEW_DELAY_MS = 10 * 60_000;

export function startScreening(store: SandboxStore, cardholder: CardholderRecord, at: number): void {
  scheduleJob(store, { kind: REVIEW_CARDHOLDER, subjectId: cardholder.id, at: at + REVIEW_DELAY_MS });
  holdForReview(store, cardholder, at);
}

export function stopScreening(store: SandboxStore, cardholderId: string): void {
  cancelJob(store, REVIEW_CARDHOLDER, cardholderId);
}

/** PENDING, announced; passing is up to the caller (a screening schedules it, the control API does not). */
export function holdForReview(store: SandboxStore, cardholder: CardholderRecord, at: number): WebhookEvent {
  cardholder.status = 'PENDING';
  return store.events.emit('issuing.cardholder.pending', cardholderData(cardholder), cardholder.id, at);
}

/** READY, announced: cards may now be issued. */
export function passReview(store: SandboxStore, cardholder: CardholderRecord, at: number): WebhookEvent {
  cardholder.status = 'READY';
  return store.events.emit('issuing.cardholder.ready', cardholderData(cardholder), cardholder.id, at);
}

export const completeReview: JobHandler = (store, job) => {
  const cardholder = store.cardholders.get(job.subjectId);
  if (cardholder?.status === 'PENDING') passReview(store, cardholder, job.at);
};
