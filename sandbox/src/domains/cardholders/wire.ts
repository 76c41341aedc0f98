import { formatLocalTime } from '../../time.ts';
import type { CardholderRecord, Individual } from './types.ts';

/**
 * Section 2.4, exactly its fields. `identification` is "seen on list responses": the list shows
 * it where the cardholder has one (the seeded ones), the single read leaves it out. The
 * nationality given at creation (`country_code`) is kept for card details' `cardholder` object,
 * which documents it, and not shown here, where the document does not.
 */
export function cardholderView(record: CardholderRecord, options: { list: boolean }) {
  return {
    id: record.id,
    email: record.email,
    status: record.status,
    type: record.type,
    mobile_number: record.mobile_number,
    postal_address: record.postal_address,
    created_by: record.created_by,
    created_at: formatLocalTime(record.createdAt),
    individual: record.individual === null ? null : individualView(record.individual, options.list),
  };
}

function individualView(individual: Individual, list: boolean) {
  const { identification, ...rest } = individual;
  return list && identification !== null ? { ...rest, identification } : rest;
}
