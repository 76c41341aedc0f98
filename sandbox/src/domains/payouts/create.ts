import { z } from 'zod';
import { badRequest, found } from '../../http.ts';
import type { Runtime } from '../../runtime.ts';
import { dayParam } from '../../date-range.ts';
import { utcDay } from '../../time.ts';
import { validate } from '../../validation.ts';
import { countryCode, currencyCode } from '../../codes.ts';
import { TRANSFER_METHODS } from '../../codes.ts';
import { bodyAmount, tradeRule, type TradeFields } from '../../trade.ts';
import { newPayoutReference, openPayout } from './factory.ts';
import { FEE_TYPES, type PayoutRecord } from './types.ts';

const PAYOUT_FIELDS: TradeFields = {
  sourceAmount: 'sourceAmount',
  destinationAmount: 'destinationAmount',
  sourceCurrency: 'sourceCurrencycode',
  destinationCurrency: 'destinationCurrencycode',
};

/** Document 1, section 4.4, field by field. */
const payoutBody = z
  .object({
    beneficiaryId: z.string().min(1),
    sourceAmount: bodyAmount,
    sourceCurrencycode: currencyCode,
    destinationAmount: bodyAmount,
    destinationCurrencycode: currencyCode,
    destinationCountry: countryCode,
    feeType: z.enum(FEE_TYPES),
    quoteId: z.string().min(1),
    reference: z.string().min(1),
    sourceOfFunds: z.string().min(1),
    transferMethod: z.enum(TRANSFER_METHODS),
    scheduledPayoutDate: dayParam,
  })
  .superRefine(tradeRule(PAYOUT_FIELDS, { distinctCurrencies: false }));

/**
 * Validates a payout request and opens the payout. Checks run from the
 * request alone to the state it refers to: shape, date, beneficiary, method, then the quote.
 * The contract asks nothing more of the destination (currency, country) than its format:
 * the beneficiary's bank may receive other currencies, so none is compared with it.
 */
export function createPayout(body: unknown, runtime: Runtime): PayoutRecord {
  const input = validate(payoutBody, body);
  const { store } = runtime;
  const now = runtime.clock.now().getTime();
  if (input.scheduledPayoutDate < utcDay(now)) throw badRequest('scheduledPayoutDate must be today or a future date');
  const beneficiary = found(store.beneficiaries.get(input.beneficiaryId), 'Beneficiary', input.beneficiaryId);
  if (!beneficiary.transfer_methods.includes(input.transferMethod)) {
    throw badRequest(
      `transferMethod ${input.transferMethod} is not one of the beneficiary's transfer methods (${beneficiary.transfer_methods.join(', ')})`,
    );
  }
  const quote = store.services.usableQuote(store, store.services.claimOf(input, PAYOUT_FIELDS, 'payout', input.quoteId), now);
  const payout = openPayout(store, {
    id: store.newId('pay'),
    systemReferenceNumber: newPayoutReference(store),
    beneficiary,
    quote,
    destinationCountry: input.destinationCountry,
    feeType: input.feeType,
    transferMethod: input.transferMethod,
    reference: input.reference,
    sourceOfFunds: input.sourceOfFunds,
    scheduledPayoutDate: input.scheduledPayoutDate,
    createdAt: now,
  });
  // A payout for today is processed (or fails) before the response.
  runtime.scheduler.runDue(now);
  return payout;
}
