import { badRequest } from '../../http.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { returnDirectDebit } from './lifecycle.ts';
import type { DirectDebitRecord } from './types.ts';

export const DISPUTE_OUTCOMES = ['payer', 'creditor'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/**
 * Section 4.3: how many months after T (the payout's created_at) a payout may still be
 * disputed at all, by the global account's country; null where there is no limit. The
 * business is a business customer: one year in the US (every ACH row), seven years in
 * Australia, indefinite in the UK and Canada, 13 months in the Netherlands. Within the
 * shorter "no review required" windows support skips its review; the sandbox resolves every
 * dispute at once either way, so only this outer limit changes what it answers.
 */
const DISPUTE_MONTHS: Readonly<Record<string, number | null>> = { US: 12, AU: 84, GB: null, CA: null, NL: 13 };

/** The last instant a payout may be disputed; null when it always may. */
function disputeDeadline(country: string, createdAt: number): number | null {
  const months = DISPUTE_MONTHS[country] ?? null;
  if (months === null) return null;
  const deadline = new Date(createdAt);
  deadline.setUTCMonth(deadline.getUTCMonth() + months);
  return deadline.getTime();
}

/**
 * A dispute raised through support and resolved (POST /sandbox/direct-debits/:id/dispute):
 * only a SETTLED payout can be disputed, within its window. The payer winning returns it;
 * the creditor winning leaves it SETTLED.
 */
export function resolveDispute(store: SandboxStore, record: DirectDebitRecord, outcome: DisputeOutcome, at: number): void {
  if (record.status !== 'SETTLED') throw badRequest(`Only SETTLED direct debits can be disputed: ${record.id} is ${record.status}`);
  const country = store.globalAccounts.get(record.globalAccountId)?.account.country_code ?? '';
  const deadline = disputeDeadline(country, record.createdAt);
  if (deadline !== null && at > deadline) throw badRequest(`The dispute window of ${record.id} closed at ${formatApiTime(deadline)}`);
  if (outcome === 'payer') returnDirectDebit(store, record, at);
}
