import { badRequest, done, requiredQueryId, type Reply } from '../../http.ts';
import type { RequestContext } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { assertMinorUnits, hasRate } from '../../amounts.ts';
import { openCard } from './lookup.ts';
import { updateCardBody, type UpdateCardInput } from './schemas.ts';
import { assertMayBecome, setCardStatus } from './status.ts';
import type { CardRecord, SpendingControls } from './types.ts';

/**
 * Endpoint 30, PATCH /card?id=. A CLOSED card cannot change. Which status moves the bank
 * refuses is not shown; the sandbox refuses one: ACTIVE for a physical card that was never
 * activated, which would skip the activation code.
 */
export function updateCard({ body, query, runtime }: RequestContext): Reply {
  const id = requiredQueryId(query);
  const input = validate(updateCardBody, body);
  const card = openCard(runtime.store, id);
  const controls = mergedControls(card, input);
  if (input.card_status !== undefined) assertMayBecome(card, input.card_status);
  card.controls = controls;
  card.updatedAt = runtime.clock.now().getTime();
  // After the controls: the event shows the card as updated.
  if (input.card_status !== undefined) setCardStatus(runtime.store, card, input.card_status, card.updatedAt);
  return done('Card updated successfully');
}

function mergedControls(card: CardRecord, input: UpdateCardInput): SpendingControls {
  const current = card.controls;
  const limitCurrency = input.currency ?? current.limitCurrency;
  if (limitCurrency !== card.currency && !hasRate(limitCurrency, card.currency)) {
    throw badRequest(`currency ${limitCurrency} has no exchange rate to the card currency ${card.currency}`);
  }
  const given = input.transaction_limits?.map((limit) => ({ interval: limit.type, amount: limit.value }));
  given?.forEach((limit, index) => assertMinorUnits(`transaction_limits[${index}].value`, limit.amount, limitCurrency));
  const patch = input.authorization_controls ?? {};
  const next: SpendingControls = {
    ...current,
    limitCurrency,
    limits: given ?? current.limits,
    activeFrom: patch.active_from === undefined ? current.activeFrom : patch.active_from,
    activeTo: patch.active_to === undefined ? current.activeTo : patch.active_to,
    allowedCurrencies: patch.allowed_currencies ?? current.allowedCurrencies,
    allowedMerchantCategories: patch.allowed_merchant_categories ?? current.allowedMerchantCategories,
  };
  if (next.activeFrom !== null && next.activeTo !== null && Date.parse(next.activeFrom) > Date.parse(next.activeTo)) {
    throw badRequest('authorization_controls.active_from must not be after authorization_controls.active_to');
  }
  return next;
}
