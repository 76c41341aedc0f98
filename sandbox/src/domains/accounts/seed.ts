import { createRandom } from '../../random.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { openAccount } from './factory.ts';
import { seedLedger, type LedgerAccount } from './seed-ledger.ts';
import type { TransferMethod } from '../../codes.ts';

interface DemoAccount extends LedgerAccount {
  country: string;
  label: string;
  methods: readonly TransferMethod[];
  openedDaysAgo: number;
}

/** Fixed ids, so documentation, tests and the gateway's examples can name them. */
const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    id: 'acc_demo_usd',
    country: 'US',
    currency: 'USD',
    label: 'USD Operating',
    methods: ['LOCAL', 'SWIFT'],
    openedDaysAgo: 500,
    openingBalance: 185_000,
  },
  {
    id: 'acc_demo_eur',
    country: 'DE',
    currency: 'EUR',
    label: 'EUR Collections',
    methods: ['LOCAL', 'SWIFT'],
    openedDaysAgo: 420,
    openingBalance: 96_000,
  },
  {
    id: 'acc_demo_gbp',
    country: 'GB',
    currency: 'GBP',
    label: 'GBP Payroll',
    methods: ['LOCAL'],
    openedDaysAgo: 300,
    openingBalance: 54_000,
  },
  {
    id: 'acc_demo_sgd',
    country: 'SG',
    currency: 'SGD',
    label: 'SGD Receivables',
    methods: ['LOCAL'],
    openedDaysAgo: 200,
    openingBalance: 72_000,
  },
  {
    id: 'acc_demo_hkd',
    country: 'HK',
    currency: 'HKD',
    label: 'HKD Legacy',
    methods: ['LOCAL'],
    openedDaysAgo: 150,
    openingBalance: 40_000,
    closedDaysAgo: 30,
  },
];

const DEMO_SEED = 20_260_122;
const OPENING_HOUR_MS = 9 * 3_600_000;

/** Accounts, balances, ~90 days of transactions and balance history, relative to today. */
export function seedAccounts(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  const random = createRandom(DEMO_SEED);
  for (const demo of DEMO_ACCOUNTS) {
    const spec = {
      id: demo.id,
      country: demo.country,
      currency: demo.currency,
      label: demo.label,
      required_features: demo.methods.map((method) => ({ currency: demo.currency, transfer_method: method })),
      status: demo.closedDaysAgo === undefined ? ('ACTIVE' as const) : ('CLOSED' as const),
    };
    openAccount(store, spec, today - demo.openedDaysAgo * DAY_MS + OPENING_HOUR_MS, random);
  }
  seedLedger(store, DEMO_ACCOUNTS, today, random);
}
