import { z } from 'zod';
import { controlRoute, statusReply } from '../../control.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { findCardholder } from './lookup.ts';
import { holdForReview, passReview, stopScreening } from './review.ts';
import { CARDHOLDER_STATUSES } from './types.ts';

// Section 2.4's statuses: each has its event (Document 3, section 6).
const statusBody = z.object({ status: z.enum(CARDHOLDER_STATUSES) });

/**
 * POST /sandbox/cardholders/{cardholderId}/status: the bank's review decided by hand. READY passes
 * it at once (a screening under way is dropped, so it does not pass it again); PENDING puts the
 * cardholder back under review and holds it there, with no timer, until it is set READY.
 */
export const cardholderStatusRoute: Route = controlRoute('POST', '/cardholders/:cardholderId/status', ({ body, params, runtime }) => {
  const { status } = validate(statusBody, body);
  const { store } = runtime;
  const cardholder = findCardholder(store, params.cardholderId ?? '');
  const previous = cardholder.status;
  if (status === previous) return statusReply(cardholder.id, previous, status, null);
  const at = runtime.clock.now().getTime();
  stopScreening(store, cardholder.id);
  const event = status === 'READY' ? passReview(store, cardholder, at) : holdForReview(store, cardholder, at);
  return statusReply(cardholder.id, previous, status, event);
});
