import { done, requiredQueryId, type Reply } from '../../http.ts';
import { toCents } from '../../money.ts';
import { assertSupported } from '../../program.ts';
import type { RequestContext } from '../../routes.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { validate } from '../../validation.ts';
import { post } from '../../ledger.ts';
import { assertMinorUnits } from '../../amounts.ts';
import { maskedNumber } from './card-number.ts';
import { requireWallet } from './funds.ts';
import { openCard } from './lookup.ts';
import { rechargeBody } from './schemas.ts';
import type { CardRecord } from './types.ts';

// Another domain's records, named through the core (store.ts).
type WalletRecord = RecordOf<'wallets'>;

/**
 * Endpoint 31, POST /card/recharge?id= (Cards program, "Load Card"): moves money from the
 * business balance in the card currency into the cardholder's wallet in that currency. An
 * INACTIVE card may be loaded (a prepaid card is loaded before use); a CLOSED one not.
 */
export function rechargeCard({ body, query, runtime }: RequestContext): Reply {
  assertSupported(runtime.program.current(), 'Load Card');
  const id = requiredQueryId(query);
  const { amount } = validate(rechargeBody, body);
  const { store } = runtime;
  const card = openCard(store, id);
  assertMinorUnits('amount', amount, card.currency);
  loadCard(store, card, requireWallet(store, card), toCents(amount), runtime.clock.now().getTime());
  return done('Card recharged successfully');
}

/** The business balance first: when it cannot cover the amount, it throws and nothing moves. */
export function loadCard(store: SandboxStore, card: CardRecord, wallet: WalletRecord, cents: number, at: number): void {
  const masked = maskedNumber(card);
  const entryId = post(store, {
    currency: card.currency,
    cents: -cents,
    feeCents: 0,
    description: `Card load to ${masked}`,
    source_type: 'CARD',
    transaction_type: 'CARD_LOAD',
    at,
  });
  store.services.moveWallet(store, wallet, {
    cents,
    type: 'LOAD',
    status: 'SUCCESS',
    refId: entryId,
    cardId: card.id,
    acceptor: '',
    description: `Load to card ${masked}`,
    email: store.cardholders.get(card.cardholderId)?.email ?? null,
    initiatedBy: 'BUSINESS',
    acquirer: { cents, currency: card.currency },
    at,
  });
}
