import { formatApiTime } from '../../time.ts';
import type { DirectDebitRecord, GlobalAccount, GlobalAccountRecord, MandateRecord } from './types.ts';

/** Wire shapes, fields in the document's (alphabetical) order; times `yyyy-MM-ddTHH:mm:ss+0000`. */

export function globalAccountView(record: GlobalAccountRecord): GlobalAccount {
  return structuredClone(record.account);
}

/** Section 2.5; the debtor and the currency are the global account's. */
export function mandateView(mandate: MandateRecord, account: GlobalAccountRecord) {
  return {
    created_at: formatApiTime(mandate.createdAt),
    creditor_name: mandate.creditorName,
    currency: account.account.currency,
    debtor_name: account.account.account_name,
    global_account_id: mandate.globalAccountId,
    id: mandate.id,
    payment_scheme: mandate.paymentScheme,
    setup_time: formatApiTime(mandate.setupAt),
    status: mandate.status,
  };
}

/** Section 2.6. */
export function directDebitView(record: DirectDebitRecord) {
  return {
    amount: record.amount,
    created_at: formatApiTime(record.createdAt),
    currency: record.currency,
    debtor_name: record.debtorName,
    global_account_id: record.globalAccountId,
    mandate_id: record.mandateId,
    statement_ref: record.statementRef,
    status: record.status,
    transaction_id: record.id,
  };
}

/** Section 2.7's page wrapper. */
export function pageView<T>(page: { items: T[]; hasMore: boolean }, view: (item: T) => object) {
  return { has_more: page.hasMore, items: page.items.map(view) };
}
