import { payoutFundedData } from './events.ts';
import { toCents } from '../../money.ts';
import { cancelJob, scheduleJob, type JobHandler } from '../../scheduler.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, parseDay } from '../../time.ts';
import { hasAvailable, post } from '../../ledger.ts';
import type { TransferMethod } from '../../codes.ts';
import type { FeeType, PayoutRecord } from './types.ts';

/**
 * Payout states. The document names PENDING (the only cancellable one) and PROCESSING; the
 * rest are the sandbox's:
 *
 *   PENDING    until 00:00 UTC of scheduledPayoutDate (a payout for today skips it)
 *   PROCESSING from then: source amount + fee debited, one PAYOUT balance-history entry
 *   COMPLETED  24 hours after PROCESSING began
 *   FAILED     instead of PROCESSING when the available balance cannot cover amount + fee;
 *              nothing is debited
 *   CANCELLED  by Cancel Payout, from PENDING only
 */
export const PROCESS_PAYOUT = 'payout.process';
export const COMPLETE_PAYOUT = 'payout.complete';

const SETTLEMENT_MS = DAY_MS;

// Per transfer method and fee type, in units of the source currency (OUR: the payer bears
// every bank's charges, SHA: they are shared).
const FEES: Record<TransferMethod, Record<FeeType, number>> = {
  SWIFT: { OUR: 25, SHA: 10 },
  LOCAL: { OUR: 2, SHA: 1 },
};
// JPY has no minor unit, so its fees are 100 times the units of the others.
const FEE_MULTIPLIER: Readonly<Record<string, number>> = { JPY: 100 };

export function feeFor(method: TransferMethod, feeType: FeeType, currency: string): number {
  return FEES[method][feeType] * (FEE_MULTIPLIER[currency] ?? 1);
}

/** Starts a stored PENDING payout on its way: processing at its date, or at once for today. */
export function schedulePayout(store: SandboxStore, payout: PayoutRecord): void {
  const day = parseDay(payout.scheduledPayoutDate) ?? payout.createdAt;
  scheduleJob(store, { kind: PROCESS_PAYOUT, subjectId: payout.id, at: Math.max(day, payout.createdAt) });
}

export function cancelPayout(store: SandboxStore, payout: PayoutRecord): void {
  payout.status = 'CANCELLED';
  cancelJob(store, PROCESS_PAYOUT, payout.id);
}

export const processPayout: JobHandler = (store, job) => {
  const payout = store.payouts.get(job.subjectId);
  if (payout?.status !== 'PENDING') return;
  const cents = toCents(payout.sourceAmount) + toCents(payout.fee);
  if (!hasAvailable(store, payout.sourceCurrency, cents)) {
    payout.status = 'FAILED';
    return;
  }
  post(store, {
    currency: payout.sourceCurrency,
    cents: -cents,
    feeCents: toCents(payout.fee),
    description: `Payout to ${payout.payeeName}`,
    source_type: 'PAYOUT',
    transaction_type: 'PAYOUT',
    at: job.at,
  });
  payout.status = 'PROCESSING';
  store.events.emit('payout.transfer.funding.funded', payoutFundedData(store, payout, job.at), payout.id, job.at);
  scheduleJob(store, { kind: COMPLETE_PAYOUT, subjectId: payout.id, at: job.at + SETTLEMENT_MS });
};

export const completePayout: JobHandler = (store, job) => {
  const payout = store.payouts.get(job.subjectId);
  if (payout?.status === 'PROCESSING') payout.status = 'COMPLETED';
};
