import { directDebitData } from './events.ts';
import { toCents } from '../../money.ts';
import { cancelJob, scheduleJob, type JobHandler } from '../../scheduler.ts';
import type { SandboxStore } from '../../store.ts';
import { hasAvailable, post } from '../../ledger.ts';
import { invalidOperation } from './access.ts';
import type { DirectDebitRecord, DirectDebitStatus, GlobalAccountRecord, MandateRecord } from './types.ts';

/**
 * Direct debit payout states (section 3) on the sandbox clock. The document shows the
 * statuses, the cancel and the dispute; the timings and the rest are the sandbox's:
 *
 *   NEW        the instruction received; left at once
 *   IN_REVIEW  instead of PENDING when the amount exceeds 10,000; PENDING 2 hours later
 *   PENDING    45 hours for GBP (section 8: "a few hours up to about 45 hours"), 2 hours
 *              for the other currencies
 *   SETTLED    the amount debited from the business's balance in its currency (one
 *              DIRECT_DEBIT balance-history entry)
 *   REJECTED   at once under a mandate that is no longer ACTIVE; at settlement when the
 *              available balance cannot cover the amount (nothing debited)
 *   CANCELLED  by Cancel Direct Debit: PENDING GBP payouts on a GB account only; nothing is
 *              debited
 *   RETURNED   a dispute resolved in the payer's favour: the amount credited back (one
 *              DIRECT_DEBIT_RETURN entry)
 *
 * Every change emits direct_debit.status_changed, NEW included. Payouts already past NEW
 * when their mandate is cancelled carry on ("payouts being processed can be disputed through
 * support after they settle", section 4.2).
 */
const ADVANCE_DIRECT_DEBIT = 'direct_debit.advance';

const HOUR_MS = 3_600_000;
const REVIEW_ABOVE = 10_000;
const REVIEW_MS = 2 * HOUR_MS;
const GBP_PENDING_MS = 45 * HOUR_MS;
const PENDING_MS = 2 * HOUR_MS;

const CANCEL_RULE = 'Only PENDING GBP direct debits in the United Kingdom can be cancelled';

export interface DirectDebitSpec {
  id: string;
  account: GlobalAccountRecord;
  mandate: MandateRecord;
  amount: number;
  statementRef: string;
  createdAt: number;
  /** When the instruction is taken up; default createdAt (at once). */
  intakeAt?: number | undefined;
}

/**
 * Stores a NEW payout and schedules its intake. Used by POST /sandbox/direct-debits and by
 * the demo seed, so both produce the same records; the caller runs the work due.
 */
export function openDirectDebit(store: SandboxStore, spec: DirectDebitSpec): DirectDebitRecord {
  const { account, mandate } = spec;
  const record: DirectDebitRecord = {
    id: spec.id,
    globalAccountId: account.id,
    mandateId: mandate.id,
    status: 'NEW',
    amount: spec.amount,
    currency: account.account.currency,
    debtorName: account.account.account_name,
    creditorName: mandate.creditorName,
    statementRef: spec.statementRef,
    createdAt: spec.createdAt,
  };
  store.directDebits.set(record.id, record);
  announce(store, record, record.createdAt);
  scheduleJob(store, { kind: ADVANCE_DIRECT_DEBIT, subjectId: record.id, at: spec.intakeAt ?? record.createdAt });
  return record;
}

/** The one job of a payout: what it does depends on the status it finds. */
const advanceDirectDebit: JobHandler = (store, job) => {
  const record = store.directDebits.get(job.subjectId);
  switch (record?.status) {
    case 'NEW':
      admit(store, record, job.at);
      break;
    case 'IN_REVIEW':
      moveTo(store, record, 'PENDING', job.at, pendingMs(record));
      break;
    case 'PENDING':
      settle(store, record, job.at);
      break;
    default:
      // Finished (or gone with a reset): nothing left to do.
      break;
  }
};

/** The domain's scheduled jobs, by kind. */
export const DIRECT_DEBIT_JOBS: Readonly<Record<string, JobHandler>> = { [ADVANCE_DIRECT_DEBIT]: advanceDirectDebit };

function admit(store: SandboxStore, record: DirectDebitRecord, at: number): void {
  if (store.mandates.get(record.mandateId)?.status !== 'ACTIVE') moveTo(store, record, 'REJECTED', at);
  else if (record.amount > REVIEW_ABOVE) moveTo(store, record, 'IN_REVIEW', at, REVIEW_MS);
  else moveTo(store, record, 'PENDING', at, pendingMs(record));
}

function settle(store: SandboxStore, record: DirectDebitRecord, at: number): void {
  const cents = toCents(record.amount);
  if (!hasAvailable(store, record.currency, cents)) {
    moveTo(store, record, 'REJECTED', at);
    return;
  }
  post(store, {
    currency: record.currency,
    cents: -cents,
    feeCents: 0,
    description: `Direct debit to ${record.creditorName}`,
    source_type: 'DIRECT_DEBIT',
    transaction_type: 'DIRECT_DEBIT',
    at,
  });
  moveTo(store, record, 'SETTLED', at);
}

const pendingMs = (record: DirectDebitRecord): number => (record.currency === 'GBP' ? GBP_PENDING_MS : PENDING_MS);

/** Sets the status, announces it and, when the state has a time limit, schedules what follows. */
function moveTo(store: SandboxStore, record: DirectDebitRecord, status: DirectDebitStatus, at: number, nextInMs?: number): void {
  record.status = status;
  announce(store, record, at);
  if (nextInMs !== undefined) scheduleJob(store, { kind: ADVANCE_DIRECT_DEBIT, subjectId: record.id, at: at + nextInMs });
}

function announce(store: SandboxStore, record: DirectDebitRecord, at: number): void {
  store.events.emit('direct_debit.status_changed', directDebitData(record), record.id, at);
}

/** Endpoint 57 (section 3): within the pending period, GBP in the United Kingdom only. */
export function cancelDirectDebit(store: SandboxStore, record: DirectDebitRecord, at: number): void {
  const country = store.globalAccounts.get(record.globalAccountId)?.account.country_code;
  if (record.status !== 'PENDING' || record.currency !== 'GBP' || country !== 'GB') throw invalidOperation(CANCEL_RULE);
  cancelJob(store, ADVANCE_DIRECT_DEBIT, record.id);
  moveTo(store, record, 'CANCELLED', at);
}

/** Endpoint 54: from then on, payouts under it are rejected at intake. */
export function cancelMandate(mandate: MandateRecord, at: number): void {
  if (mandate.status !== 'ACTIVE') throw invalidOperation(`Mandate ${mandate.id} is already cancelled`);
  mandate.status = 'CANCELLED';
  mandate.cancelledAt = at;
}

/** A dispute of a SETTLED payout resolved in the payer's favour (section 3, disputes.ts): funds back. */
export function returnDirectDebit(store: SandboxStore, record: DirectDebitRecord, at: number): void {
  post(store, {
    currency: record.currency,
    cents: toCents(record.amount),
    feeCents: 0,
    description: `Direct debit to ${record.creditorName} returned`,
    source_type: 'DIRECT_DEBIT',
    transaction_type: 'DIRECT_DEBIT_RETURN',
    at,
  });
  moveTo(store, record, 'RETURNED', at);
}
