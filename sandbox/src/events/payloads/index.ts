import type { EventName } from '../catalogue.ts';
import type { DepositRejectedData, DepositSettledData, GaNewData, TopUpData } from './deposits.ts';
import type { DirectDebitData } from './direct-debits.ts';
import type { CardData, CardholderData, CardholderDeletedData, CardTransactionData } from './issuing.ts';
import type { AccountActiveData, AccountSuspendedData, RfiData } from './onboarding.ts';
import type { ConversionScheduledData, ConversionUpdatedData, PayoutFundedData, PayoutScheduledData } from './transfers.ts';

export * from './deposits.ts';
export * from './direct-debits.ts';
export * from './issuing.ts';
export * from './onboarding.ts';
export * from './transfers.ts';

/** The `data` of each event (section 6). */
export interface EventPayloads {
  'account.active': AccountActiveData;
  'account.submitted': Record<string, never>;
  'account.suspended': AccountSuspendedData;
  'balance.ga.top_up': TopUpData;
  'conversion.cancelled': ConversionUpdatedData;
  'conversion.overdue': ConversionUpdatedData;
  'conversion.scheduled': ConversionScheduledData;
  'conversion.settled': ConversionUpdatedData;
  'deposit.rejected': DepositRejectedData;
  'deposit.settled': DepositSettledData;
  'direct_debit.status_changed': DirectDebitData;
  'ga.new': GaNewData;
  'issuing.card.active': CardData;
  'issuing.card.blocked': CardData;
  'issuing.cardholder.deleted': CardholderDeletedData;
  'issuing.cardholder.pending': CardholderData;
  'issuing.cardholder.ready': CardholderData;
  'issuing.transaction.succeeded': CardTransactionData;
  'payout.transfer.funding.funded': PayoutFundedData;
  'payout.transfer.funding.scheduled': PayoutScheduledData;
  'rfi.action_required': RfiData;
}

// Fails to compile when the catalogue and the payload table name different events.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const PAYLOADS_COVER_CATALOGUE: Same<keyof EventPayloads, EventName> = true;

export type EventData<N extends EventName> = EventPayloads[N];
