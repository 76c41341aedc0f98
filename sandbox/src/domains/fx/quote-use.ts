import { badRequest } from '../../http.ts';
import { toCents } from '../../money.ts';
import type { SandboxStore } from '../../store.ts';
import { fixedAmountOf, type TradeFields } from '../../trade.ts';
import { findQuote } from './quotes.ts';
import type { QuoteRecord, QuoteType } from './types.ts';

/** A field of the request that must equal the quote's, named as the request names it. */
interface Term<T> {
  field: string;
  value: T;
}

/** What a payout or a conversion claims to trade, checked against its quote. */
export interface QuoteClaim {
  quoteId: string;
  purpose: QuoteType;
  sourceCurrency: Term<string>;
  destinationCurrency: Term<string>;
  /** The one amount the request gives: it must equal the quote's amount on that side. */
  amount: Term<number> & { side: 'source' | 'destination' };
}

/**
 * The quote, when the claim may use it: it exists, is of the right type, unused, unexpired
 * (expiryTime itself is too late), and the currencies and amount are the quote's. Checks
 * only: the caller claims it with claimQuote once the rest of its request is valid too.
 */
export function usableQuote(store: SandboxStore, claim: QuoteClaim, now: number): QuoteRecord {
  const quote = findQuote(store, claim.quoteId);
  const id = quote.id;
  if (quote.quoteType !== claim.purpose) throw badRequest(`Quote ${id} is a ${quote.quoteType} quote, not a ${claim.purpose} quote`);
  if (quote.usedBy !== null) throw badRequest(`Quote ${id} has already been used`);
  if (now >= quote.expiresAt) throw badRequest(`Quote ${id} has expired`);
  mustMatch(claim.sourceCurrency, quote.sourceCurrency);
  mustMatch(claim.destinationCurrency, quote.destinationCurrency);
  const quoted = claim.amount.side === 'source' ? quote.sourceAmount : quote.destinationAmount;
  if (toCents(claim.amount.value) !== toCents(quoted)) mismatch(claim.amount, quoted);
  return quote;
}

/** The claim of a request whose amounts passed tradeRule, in its own field names. */
export function claimOf(request: Record<string, unknown>, fields: TradeFields, purpose: QuoteType, quoteId: string): QuoteClaim {
  const fixed = fixedAmountOf(request, fields);
  const term = (field: string): Term<string> => ({ field, value: String(request[field]) });
  return {
    quoteId,
    purpose,
    sourceCurrency: term(fields.sourceCurrency),
    destinationCurrency: term(fields.destinationCurrency),
    amount: { field: fixed.side === 'source' ? fields.sourceAmount : fields.destinationAmount, value: fixed.amount, side: fixed.side },
  };
}

export function claimQuote(quote: QuoteRecord, usedBy: string): void {
  quote.usedBy = usedBy;
}

function mustMatch(term: Term<string>, quoted: string): void {
  if (term.value !== quoted) mismatch(term, quoted);
}

function mismatch(term: Term<string | number>, quoted: string | number): never {
  throw badRequest(`${term.field} ${term.value} does not match the quote's ${quoted}`);
}
