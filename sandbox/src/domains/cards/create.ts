import { badRequest, ok, type Reply } from '../../http.ts';
import { requestFingerprint } from '../../idempotency.ts';
import { assertSupported } from '../../program.ts';
import type { RequestContext } from '../../routes.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { toAddress } from '../../address.ts';
import { cardNumberParts, drawCardNumber } from './card-number.ts';
import { initialControls, issueCard } from './factory.ts';
import { assertMayHold } from './lookup.ts';
import { createCardBody, type CreateCardInput } from './schemas.ts';

// Another domain's records, named through the core (store.ts).
type CardholderRecord = RecordOf<'cardholders'>;

/**
 * Endpoint 24, POST /svc/api/v1/card. Checks run from the request alone to the state it
 * refers to: the program (before the body, so a PHYSICAL request in the Cards program
 * hears that first), the body, a replayed request_id, the cardholder, eKYC.
 */
export function createCard({ body, path, runtime }: RequestContext): Reply {
  const program = runtime.program.current();
  if (isPhysical(body)) assertSupported(program, 'Physical card creation');
  const input = validate(createCardBody, body);
  const { store } = runtime;
  const fingerprint = requestFingerprint('POST', path, {}, body);
  const replayed = replayOf(store, input.request_id, fingerprint);
  if (replayed !== null) return created(replayed);

  const cardholder = store.services.readyCardholder(store, input.card_holder_id);
  store.services.assertEkycDone(program, store, cardholder.id, 'card issuance');
  assertMayHold(cardholder, input.is_personalized);
  const card = issueCard(store, runtime.logger, specOf(store, input, cardholder), runtime.clock.now().getTime());
  store.cardRequests.set(input.request_id, { cardId: card.id, fingerprint });
  return created(card.id);
}

const created = (id: string): Reply => ok({ id }, 'Card created successfully');

function isPhysical(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as Record<string, unknown>).card_type === 'PHYSICAL';
}

/**
 * request_id is the body's own idempotency key, apart from x-request-id: the same request
 * again names the card made the first time; the same key for another request is refused.
 */
function replayOf(store: SandboxStore, requestId: string, fingerprint: string): string | null {
  const earlier = store.cardRequests.get(requestId);
  if (earlier === undefined) return null;
  if (earlier.fingerprint !== fingerprint) throw badRequest(`request_id ${requestId} was already used for a different card request`);
  return earlier.cardId;
}

function specOf(store: SandboxStore, input: CreateCardInput, cardholder: CardholderRecord) {
  const { allowed_transaction_count, transaction_limits } = input.authorization_controls;
  const physical = input.card_type === 'PHYSICAL';
  return {
    id: store.newId('crd'),
    cardholder,
    type: input.card_type,
    currency: transaction_limits.currency,
    personalized: input.is_personalized,
    assigned: false,
    createdBy: input.created_by,
    number: cardNumberParts(drawCardNumber(store.random)),
    controls: initialControls(allowed_transaction_count, transaction_limits.currency, transaction_limits.limits),
    postalAddress: physical && input.postal_address != null ? toAddress(input.postal_address) : null,
  };
}
