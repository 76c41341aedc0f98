import { createScheduler } from '../../scheduler.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { resolveDispute } from './disputes.ts';
import { PAYMENT_SCHEMES, seedGlobalAccounts } from './global-accounts.ts';
import { cancelDirectDebit, cancelMandate, DIRECT_DEBIT_JOBS, openDirectDebit } from './lifecycle.ts';
import type { DirectDebitRecord, MandateRecord } from './types.ts';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
// A mandate is usable this long after the creditor lodged it.
const SETUP_MS = 2 * HOUR_MS;

interface DemoMandate {
  id: string;
  account: string;
  creditor: string;
  createdDaysAgo: number;
  cancelledDaysAgo?: number;
}

const DEMO_MANDATES: readonly DemoMandate[] = [
  { id: 'mdt_demo_gb_1', account: 'ga_demo_gb', creditor: 'Northwind Energy Ltd', createdDaysAgo: 210 },
  { id: 'mdt_demo_gb_2', account: 'ga_demo_gb', creditor: 'Contoso Telecom UK', createdDaysAgo: 150 },
  { id: 'mdt_demo_gb_3', account: 'ga_demo_gb', creditor: 'Fabrikam Insurance plc', createdDaysAgo: 95, cancelledDaysAgo: 10 },
  { id: 'mdt_demo_gb_4', account: 'ga_demo_gb', creditor: 'Litware Software Ltd', createdDaysAgo: 12 },
  { id: 'mdt_demo_us_1', account: 'ga_demo_us', creditor: 'Tailspin Payroll Services', createdDaysAgo: 120 },
  { id: 'mdt_demo_us2_1', account: 'ga_demo_us2', creditor: 'Hudson Benefits Co', createdDaysAgo: 40 },
  { id: 'mdt_demo_au_1', account: 'ga_demo_au', creditor: 'Southern Cross Utilities Pty Ltd', createdDaysAgo: 60 },
  { id: 'mdt_demo_ca_1', account: 'ga_demo_ca', creditor: 'Maple Fleet Leasing Inc.', createdDaysAgo: 45 },
  { id: 'mdt_demo_nl_1', account: 'ga_demo_nl', creditor: 'Polder Energie B.V.', createdDaysAgo: 80 },
];

interface DemoDirectDebit {
  id: string;
  mandate: string;
  amount: number;
  statementRef: string;
  createdAt: number;
  /** The NEW one is taken up a quarter of an hour after the seed: until then it shows NEW. */
  intakeAt?: number;
  /** Cancelled (PENDING GBP only) this long after creation. */
  cancelAfterMs?: number;
  /** Disputed, and the payer won, at this instant (after it settled). */
  returnedAt?: number;
}

/**
 * Payouts in every status, all but one dated within the last 30 days. The instants are
 * chosen so that settlements and returns land late yesterday, after every other domain's
 * seeded balance movement (the cards' wallet load at 21:30 is the last), keeping the running
 * balances of the history in time order; an older one is cancelled, so it moves nothing.
 * AU and CA payouts meet no balance in their currency: the AU one was rejected at
 * settlement, the CA one will be.
 */
function demoDirectDebits(now: number, today: number): DemoDirectDebit[] {
  const yesterday = (hours: number): number => today - DAY_MS + hours * HOUR_MS;
  const daysAgo = (days: number, hours: number): number => today - days * DAY_MS + hours * HOUR_MS;
  // GBP payouts stay PENDING 45 hours: these settle yesterday at 22:00 and 22:30.
  const gbpSettlingAt = (hours: number): number => yesterday(hours) - 45 * HOUR_MS;
  return [
    {
      id: 'ddt_demo_gb_old',
      mandate: 'mdt_demo_gb_2',
      amount: 150,
      statementRef: 'CONTOSO 7730021',
      createdAt: daysAgo(45, 9),
      cancelAfterMs: 2 * HOUR_MS,
    },
    {
      id: 'ddt_demo_gb_cancelled',
      mandate: 'mdt_demo_gb_1',
      amount: 780,
      statementRef: 'NORTHWIND Q3-0412',
      createdAt: daysAgo(8, 9),
      cancelAfterMs: 6 * HOUR_MS,
    },
    { id: 'ddt_demo_gb_rejected', mandate: 'mdt_demo_gb_3', amount: 45, statementRef: 'FABRIKAM POL-88213', createdAt: daysAgo(5, 9) },
    { id: 'ddt_demo_gb_settled', mandate: 'mdt_demo_gb_1', amount: 1_250, statementRef: 'NORTHWIND Q3-0413', createdAt: gbpSettlingAt(22) },
    {
      id: 'ddt_demo_gb_returned',
      mandate: 'mdt_demo_gb_2',
      amount: 89.99,
      statementRef: 'CONTOSO 7730022',
      createdAt: gbpSettlingAt(22.5),
      returnedAt: yesterday(23),
    },
    { id: 'ddt_demo_au_rejected', mandate: 'mdt_demo_au_1', amount: 530, statementRef: 'SCU 40012877', createdAt: yesterday(19) },
    { id: 'ddt_demo_nl_settled', mandate: 'mdt_demo_nl_1', amount: 275, statementRef: 'POLDER 2026-118', createdAt: yesterday(20) },
    { id: 'ddt_demo_us_settled', mandate: 'mdt_demo_us_1', amount: 2_450, statementRef: 'TAILSPIN PR-5521', createdAt: yesterday(21.75) },
    {
      id: 'ddt_demo_gb_pending_3',
      mandate: 'mdt_demo_gb_4',
      amount: 2_300,
      statementRef: 'LITWARE LIC-2210',
      createdAt: now - 40 * HOUR_MS,
    },
    { id: 'ddt_demo_gb_pending_2', mandate: 'mdt_demo_gb_2', amount: 64.5, statementRef: 'CONTOSO 7730023', createdAt: now - 20 * HOUR_MS },
    { id: 'ddt_demo_gb_pending_1', mandate: 'mdt_demo_gb_1', amount: 420, statementRef: 'NORTHWIND Q3-0414', createdAt: now - 3 * HOUR_MS },
    {
      id: 'ddt_demo_gb_review',
      mandate: 'mdt_demo_gb_1',
      amount: 15_000,
      statementRef: 'NORTHWIND ANNUAL',
      createdAt: now - 30 * MINUTE_MS,
    },
    {
      id: 'ddt_demo_ca_pending',
      mandate: 'mdt_demo_ca_1',
      amount: 1_100,
      statementRef: 'MAPLE LEASE 0931',
      createdAt: now - 35 * MINUTE_MS,
    },
    {
      id: 'ddt_demo_gb_new',
      mandate: 'mdt_demo_gb_2',
      amount: 310,
      statementRef: 'CONTOSO 7730024',
      createdAt: now - MINUTE_MS,
      intakeAt: now + 15 * MINUTE_MS,
    },
  ];
}

/** Something a client or support did at an instant. */
interface Step {
  at: number;
  run(at: number): void;
}

/**
 * The global accounts, their mandates, and the payouts' past replayed in time order: before
 * each step, the payouts' own work due by then runs (intake, review, settlement), so a
 * cancel finds its payout PENDING and a dispute finds it SETTLED. Every other domain's work
 * due by `now` has run before this seed (seed.ts), so only this domain's jobs come due here.
 */
export function seedDirectDebits(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  seedGlobalAccounts(store);
  const steps: Step[] = [];
  for (const demo of DEMO_MANDATES) {
    const mandate = openMandate(store, demo, today);
    const { cancelledDaysAgo } = demo;
    if (cancelledDaysAgo !== undefined)
      steps.push({ at: today - cancelledDaysAgo * DAY_MS + 14 * HOUR_MS, run: (at) => cancelMandate(mandate, at) });
  }
  for (const demo of demoDirectDebits(now, today)) steps.push(...directDebitSteps(store, demo));
  const runner = createScheduler(() => store, new Map(Object.entries(DIRECT_DEBIT_JOBS)));
  for (const step of steps.sort((a, b) => a.at - b.at)) {
    runner.runDue(step.at);
    step.run(step.at);
  }
}

function openMandate(store: SandboxStore, demo: DemoMandate, today: number): MandateRecord {
  const account = store.globalAccounts.get(demo.account);
  const scheme = PAYMENT_SCHEMES[account?.account.country_code ?? ''];
  if (scheme === undefined) throw new Error(`demo mandate ${demo.id} needs a direct debit account`);
  const createdAt = today - demo.createdDaysAgo * DAY_MS + 10 * HOUR_MS;
  const mandate: MandateRecord = {
    id: demo.id,
    globalAccountId: demo.account,
    status: 'ACTIVE',
    creditorName: demo.creditor,
    paymentScheme: scheme,
    createdAt,
    setupAt: createdAt + SETUP_MS,
    cancelledAt: null,
  };
  store.mandates.set(mandate.id, mandate);
  return mandate;
}

function directDebitSteps(store: SandboxStore, demo: DemoDirectDebit): Step[] {
  const mandate = store.mandates.get(demo.mandate);
  const account = store.globalAccounts.get(mandate?.globalAccountId ?? '');
  if (mandate === undefined || account === undefined) throw new Error(`demo direct debit ${demo.id} needs its mandate`);
  const { id, amount, statementRef, createdAt, intakeAt } = demo;
  // Later steps come after the opening one: the payout is there by then.
  const opened = (): DirectDebitRecord => {
    const record = store.directDebits.get(id);
    if (record === undefined) throw new Error(`demo direct debit ${id} was not opened`);
    return record;
  };
  const steps: Step[] = [
    { at: createdAt, run: () => openDirectDebit(store, { id, account, mandate, amount, statementRef, createdAt, intakeAt }) },
  ];
  if (demo.cancelAfterMs !== undefined)
    steps.push({ at: createdAt + demo.cancelAfterMs, run: (at) => cancelDirectDebit(store, opened(), at) });
  if (demo.returnedAt !== undefined) steps.push({ at: demo.returnedAt, run: (at) => resolveDispute(store, opened(), 'payer', at) });
  return steps;
}
