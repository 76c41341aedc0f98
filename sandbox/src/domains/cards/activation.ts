import { cardData } from './events.ts';
import { badRequest, done, requiredQueryId, type Reply } from '../../http.ts';
import { assertSupported } from '../../program.ts';
import type { RequestContext } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { secretDigest } from './card-number.ts';
import { findCard, openCard } from './lookup.ts';
import { activateCardBody, pinBody } from './schemas.ts';

/**
 * Endpoint 28, POST /card/activate?id=: an INACTIVE physical card becomes ACTIVE. An
 * assigned card needs the e-mailed activation code and a new 6-digit PIN; a card created in
 * the Banking program may send neither, but a code it sends must be the right one. Neither
 * the code nor the PIN is ever repeated in a message.
 */
export function activateCard({ body, query, runtime }: RequestContext): Reply {
  const id = requiredQueryId(query);
  const input = validate(activateCardBody, body);
  const card = findCard(runtime.store, id);
  if (card.type !== 'PHYSICAL' || card.status !== 'INACTIVE') throw badRequest(`Card ${id} is not an inactive physical card`);
  if (card.assigned) {
    if (input.activation_code == null) throw badRequest('activation_code is required for an assigned card');
    if (input.pin == null) throw badRequest('pin is required for an assigned card');
  }
  if (input.activation_code != null && input.activation_code !== card.activationCode) throw badRequest('activation_code is incorrect');
  if (input.pin != null) card.pinDigest = secretDigest(input.pin);
  Object.assign(card, { status: 'ACTIVE', activated: true, updatedAt: runtime.clock.now().getTime() });
  runtime.store.events.emit('issuing.card.active', cardData(card), card.id, card.updatedAt);
  return done('Card activated successfully');
}

/** Endpoint 29, POST /card/pin?id= (Cards program): a new PIN for an activated, assigned card. */
export function resetPin({ body, query, runtime }: RequestContext): Reply {
  assertSupported(runtime.program.current(), 'Reset PIN');
  const id = requiredQueryId(query);
  const { pin } = validate(pinBody, body);
  const card = openCard(runtime.store, id);
  if (!card.assigned) throw badRequest(`Card ${id} is not an assigned physical card`);
  // The first PIN is set by activation; there is nothing to reset before it.
  if (!card.activated) throw badRequest(`Card ${id} is not activated yet`);
  card.pinDigest = secretDigest(pin);
  card.updatedAt = runtime.clock.now().getTime();
  return done('PIN reset successfully');
}
