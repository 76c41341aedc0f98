/**
 * The events the sandbox emits (Document 3, sections 2.2 and 6), with the descriptions Get All
 * Webhooks lists. Section 2.2's table plus the other events of section 6; the direct debit
 * status event has no name in the document, `direct_debit.status_changed` is the sandbox's.
 * Alphabetical, as the document's table is.
 */
export const EVENT_CATALOGUE = {
  'account.active': 'Onboarding',
  'account.submitted': 'Onboarding',
  'account.suspended': 'Onboarding',
  'balance.ga.top_up': 'Deposit',
  'conversion.cancelled': 'Currency Conversion',
  'conversion.overdue': 'Currency Conversion',
  'conversion.scheduled': 'Currency Conversion',
  'conversion.settled': 'Currency Conversion',
  'deposit.rejected': 'Deposit',
  'deposit.settled': 'Deposit',
  'direct_debit.status_changed': 'Direct Debit Payout',
  'ga.new': 'Virtual Account Creation',
  'issuing.card.active': 'Card Status',
  'issuing.card.blocked': 'Card Status',
  'issuing.cardholder.deleted': 'Cardholder Status',
  'issuing.cardholder.pending': 'Cardholder Status',
  'issuing.cardholder.ready': 'Cardholder Status',
  'issuing.transaction.succeeded': 'Card Transaction',
  'payout.transfer.funding.funded': 'Payout Transfer',
  'payout.transfer.funding.scheduled': 'Payout Transfer',
  'rfi.action_required': 'Request For Information',
} as const;

export type EventName = keyof typeof EVENT_CATALOGUE;

export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as [EventName, ...EventName[]];

/** Section 2.3: the `version` of every envelope (the value seen). */
export const EVENT_VERSION = '2025-02-14';

/**
 * The envelope id (section 2.3): the resource id, then `_` and the status for the events that
 * report one (`dep_x_PENDING`), `_TOP_UP` for a top-up, else `_` and the event name.
 */
export function eventId(name: EventName, resourceId: string, data: Readonly<Record<string, unknown>>): string {
  switch (name) {
    case 'ga.new':
      return `${resourceId}_${String(data.process_status)}`;
    case 'deposit.settled':
    case 'deposit.rejected':
    case 'direct_debit.status_changed':
      return `${resourceId}_${String(data.status)}`;
    case 'balance.ga.top_up':
      return `${resourceId}_TOP_UP`;
    default:
      return `${resourceId}_${name}`;
  }
}
