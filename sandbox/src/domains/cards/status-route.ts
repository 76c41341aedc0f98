import { z } from 'zod';
import { controlRoute, statusReply } from '../../control.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { assertOpen, findCard } from './lookup.ts';
import { assertMayBecome, setCardStatus } from './status.ts';
import { CARD_STATUSES } from './types.ts';

// Update Card's values (Document 2, section 4.1): the statuses a card can be given.
const statusBody = z.object({ status: z.enum(CARD_STATUSES) });

/**
 * POST /sandbox/cards/{cardId}/status: the bank or the card network moves the card (blocks it for
 * fraud, unblocks it, closes it), with the event Update Card would send. It keeps the rules
 * Update Card keeps: CLOSED is final, and only Activate Card first activates a physical card.
 */
export const cardStatusRoute: Route = controlRoute('POST', '/cards/:cardId/status', ({ body, params, runtime }) => {
  const { status } = validate(statusBody, body);
  const { store } = runtime;
  const card = findCard(store, params.cardId ?? '');
  const previous = card.status;
  if (status !== previous) {
    assertOpen(card);
    assertMayBecome(card, status);
  }
  const event = setCardStatus(store, card, status, runtime.clock.now().getTime());
  return statusReply(card.id, previous, status, event);
});
