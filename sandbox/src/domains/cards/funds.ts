import { badRequest } from '../../http.ts';
import { toCents } from '../../money.ts';
import { rulesOf, type Program } from '../../program.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { hasAvailable, post } from '../../ledger.ts';
import { maskedNumber } from './card-number.ts';
import type { CardRecord } from './types.ts';

// Another domain's records, named through the core (store.ts).
type WalletRecord = RecordOf<'wallets'>;

/**
 * Where card spending draws from, decided by the program (program.ts): the cardholder's
 * wallet in the card currency (CARDS), or the business balance in the card currency through
 * the ledger (BANKING). Purchases debit at authorization; refunds credit back.
 */
export interface CardMovement {
  card: CardRecord;
  kind: 'PURCHASE' | 'REFUND';
  /** Unsigned, in the card currency. */
  cents: number;
  /** The card transaction. */
  refId: string;
  merchantName: string;
  /** The amount the merchant asked for, before conversion. */
  original: { cents: number; currency: string };
  at: number;
}

export function fundsCover(store: SandboxStore, program: Program, card: CardRecord, cents: number): boolean {
  if (rulesOf(program).funds === 'balance') return hasAvailable(store, card.currency, cents);
  const wallet = spendingWallet(store, card);
  return wallet !== undefined && toCents(wallet.amount) >= cents;
}

/** Callers check cover for a purchase first (fundsCover); nothing here declines. */
export function moveFunds(store: SandboxStore, program: Program, movement: CardMovement): void {
  const { card, kind, at } = movement;
  const signed = kind === 'PURCHASE' ? -movement.cents : movement.cents;
  if (rulesOf(program).funds === 'balance') {
    const preposition = kind === 'PURCHASE' ? 'at' : 'from';
    post(store, {
      currency: card.currency,
      cents: signed,
      feeCents: 0,
      description: `Card ${kind.toLowerCase()} ${preposition} ${movement.merchantName} (${maskedNumber(card)})`,
      source_type: 'CARD',
      transaction_type: kind === 'PURCHASE' ? 'CARD_PURCHASE' : 'CARD_REFUND',
      at,
    });
    return;
  }
  store.services.moveWallet(store, requireWallet(store, card), {
    cents: signed,
    type: kind,
    status: 'APPROVED',
    refId: movement.refId,
    cardId: card.id,
    acceptor: movement.merchantName,
    description: null,
    email: null,
    initiatedBy: 'CARDHOLDER',
    acquirer: movement.original,
    at,
  });
}

/** The cardholder's wallet when it holds the card currency (Load Card needs one too). */
export function requireWallet(store: SandboxStore, card: CardRecord): WalletRecord {
  const wallet = spendingWallet(store, card);
  if (wallet === undefined) throw badRequest(`Cardholder ${card.cardholderId} has no wallet in ${card.currency}`);
  return wallet;
}

function spendingWallet(store: SandboxStore, card: CardRecord): WalletRecord | undefined {
  return store.services.walletIn(store, card.cardholderId, card.currency);
}
