import { badRequest, done, type Reply } from '../../http.ts';
import { assertSupported } from '../../program.ts';
import type { RequestContext } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { cardNumberParts, type CardNumberParts } from './card-number.ts';
import { initialControls, issueCard } from './factory.ts';
import { assertMayHold } from './lookup.ts';
import { assignCardBody } from './schemas.ts';

/**
 * Endpoint 25, POST /svc/api/v1/card/assign (Cards program): a pre-issued physical card
 * becomes the cardholder's, INACTIVE, personalized and single-use (card_mode SINGLE), with
 * an activation code e-mailed. The card number is cut to its parts before anything else
 * happens, and no message names it.
 */
export function assignCard({ body, runtime }: RequestContext): Reply {
  const program = runtime.program.current();
  assertSupported(program, 'Assign Card');
  const input = validate(assignCardBody, body);
  const number = cardNumberParts(input.card_number);
  const { store } = runtime;
  const cardholder = store.services.readyCardholder(store, input.cardholder_id);
  store.services.assertEkycDone(program, store, cardholder.id, 'card issuance');
  assertMayHold(cardholder, true);
  assertUnassigned(store, number);
  const spec = {
    id: store.newId('crd'),
    cardholder,
    type: 'PHYSICAL' as const,
    currency: input.card_currency,
    personalized: true,
    assigned: true,
    createdBy: input.created_by ?? input.createdBy ?? '',
    number,
    // The document gives no limits for an assigned card: none until Update Card sets some.
    controls: initialControls('SINGLE', input.card_currency, []),
    // Delivered already; the address it went to is the cardholder's.
    postalAddress: cardholder.postal_address ?? cardholder.individual?.address ?? null,
  };
  issueCard(store, runtime.logger, spec, runtime.clock.now().getTime());
  return done('Card assigned successfully');
}

function assertUnassigned(store: SandboxStore, number: CardNumberParts): void {
  const taken = [...store.cards.values()].some((card) => card.numberDigest === number.digest);
  if (taken) throw badRequest('card_number is already assigned to a card');
}
