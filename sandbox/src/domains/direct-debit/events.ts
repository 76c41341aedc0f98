import type { DirectDebitRecord, DirectDebitStatus } from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';

/**
 * direct_debit.status_changed (the name and payload are the sandbox's; section 6 gives
 * neither): sent on every status change of a direct debit payout, CANCELLED included.
 */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'direct_debit.status_changed': DirectDebitData;
  }
}

export interface DirectDebitData {
  transaction_id: string;
  mandate_id: string;
  global_account_id: string;
  status: DirectDebitStatus;
  amount: number;
  currency: string;
}

export function directDebitData(record: DirectDebitRecord): DirectDebitData {
  return {
    transaction_id: record.id,
    mandate_id: record.mandateId,
    global_account_id: record.globalAccountId,
    status: record.status,
    amount: record.amount,
    currency: record.currency,
  };
}

export const directDebitEventDefaults = {
  'direct_debit.status_changed': recordDefault('direct debit', (store) => store.directDebits, directDebitData),
} satisfies Record<string, EventDefault>;
