import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../src/index.ts';
import {
  BALANCE_PATH,
  HISTORY_PATH,
  TRANSACTIONS_PATH,
  apiClient,
  envelopeError,
  sandboxDay,
  startTestSandbox,
  type Api,
} from './helpers.ts';

interface Transaction {
  amount: number;
  create_time: string;
  description: string;
  currency: string;
  id: string;
  type: string;
  status: string;
}

interface HistoryEntry {
  id: string;
  amount: number;
  currency: string;
  balance: number;
  description: string;
  fee: number;
  create_time: string;
  source_type: string;
  transaction_type: string;
}

let sandbox: Sandbox;
let api: Api;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = await apiClient(sandbox);
});
afterAll(() => sandbox.close());

const API_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;
const timeOf = (item: { create_time: string }) => Date.parse(item.create_time.replace('+0000', 'Z'));
const cents = (amount: number) => Math.round(amount * 100);

const transactions = (query: Record<string, string | number> = {}, accountId: string | null = 'acc_demo_usd') =>
  api.get(TRANSACTIONS_PATH, { query, headers: { 'x-account-id': accountId ?? undefined } });

async function fullHistory(): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  for (let page = 1; ; page += 1) {
    const response = await api.get(HISTORY_PATH, { query: { page, size: 100 } });
    entries.push(...(response.body.data as HistoryEntry[]));
    if (response.body.data.length < 100) return entries;
  }
}

describe('GET /svc/api/v1/account/balance', () => {
  it('returns one numeric balance per demo currency', async () => {
    const response = await api.get(BALANCE_PATH);
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Balances retrieved successfully' });
    const balances = response.body.data as Record<string, unknown>[];
    expect(balances.map((balance) => balance.currency)).toEqual(['USD', 'EUR', 'GBP', 'SGD', 'HKD']);
    for (const balance of balances) {
      expect(Object.keys(balance).sort()).toEqual(['available_balance', 'currency', 'pending_amount', 'reserved_amount']);
      expect(balance.available_balance).toBeTypeOf('number');
      expect(balance.available_balance as number).toBeGreaterThan(0);
      expect(balance.pending_amount).toBeTypeOf('number');
      expect(balance.reserved_amount).toBe(0);
    }
  });

  it('filters by currency and validates it', async () => {
    const eur = await api.get(BALANCE_PATH, { query: { currency: 'EUR' } });
    expect(eur.body.data.map((balance: { currency: string }) => balance.currency)).toEqual(['EUR']);
    expect((await api.get(BALANCE_PATH, { query: { currency: 'JPY' } })).body.data).toEqual([]);
    expect((await api.get(BALANCE_PATH, { query: { currency: 'euro' } })).body.message).toBe(
      'currency must be a 3-letter ISO-4217 code in capitals',
    );
  });

  it('ends where the balance history ends, and counts pending credits as pending', async () => {
    const [history, balances] = await Promise.all([fullHistory(), api.get(BALANCE_PATH)]);
    for (const balance of balances.body.data as { currency: string; available_balance: number; pending_amount: number }[]) {
      const latest = history.find((entry) => entry.currency === balance.currency);
      expect(latest?.balance).toBe(balance.available_balance);
      const pending = [...sandbox.store.transactions.values()]
        .filter((record) => record.transaction.currency === balance.currency && record.transaction.status === 'PENDING')
        .reduce((sum, record) => sum + cents(record.transaction.amount), 0);
      expect(cents(balance.pending_amount)).toBe(pending);
    }
  });
});

describe('GET /svc/api/v1/account/transactions', () => {
  it('returns a first page of 20, newest first, with the fields of section 2.5', async () => {
    const response = await transactions();
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Transactions retrieved successfully' });
    const page = response.body.data as Transaction[];
    expect(page).toHaveLength(20);
    for (const item of page) {
      expect(Object.keys(item).sort()).toEqual(['amount', 'create_time', 'currency', 'description', 'id', 'status', 'type']);
      expect(item.id).toMatch(/^txn_usd_\d{4}$/);
      expect(item.currency).toBe('USD');
      expect(item.create_time).toMatch(API_TIME);
      expect(['CREDIT', 'DEBIT']).toContain(item.type);
      expect(['SETTLED', 'PENDING']).toContain(item.status);
      expect(item.amount).toBeGreaterThan(0);
    }
    const times = page.map(timeOf);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('pages without gaps or overlaps', async () => {
    const all = (await transactions({ size: 100 })).body.data as Transaction[];
    expect(all.length).toBeGreaterThan(25);
    expect(all.length).toBeLessThan(100);
    const second = (await transactions({ page: 2, size: 10 })).body.data as Transaction[];
    expect(second.map((item) => item.id)).toEqual(all.slice(10, 20).map((item) => item.id));
    expect((await transactions({ page: 50 })).body.data).toEqual([]);
  });

  it('spans about 90 days, with credits, debits and some pending items across the demo accounts', async () => {
    const all = (await transactions({ size: 100 })).body.data as Transaction[];
    const oldest = timeOf(all.at(-1) as Transaction);
    const ageDays = (sandbox.clock.now().getTime() - oldest) / 86_400_000;
    expect(ageDays).toBeGreaterThan(80);
    expect(ageDays).toBeLessThanOrEqual(91);
    expect(new Set(all.map((item) => item.type))).toEqual(new Set(['CREDIT', 'DEBIT']));
    const statuses = [...sandbox.store.transactions.values()].map((record) => record.transaction.status);
    expect(statuses).toContain('PENDING');
    expect(statuses.filter((status) => status === 'SETTLED').length).toBeGreaterThan(statuses.length * 0.9);
  });

  it('filters on the UTC day of create_time, both ends included', async () => {
    const from = sandboxDay(sandbox, -40);
    const to = sandboxDay(sandbox, -9);
    const page = (await transactions({ from_date: from, to_date: to, size: 100 })).body.data as Transaction[];
    expect(page.length).toBeGreaterThan(0);
    for (const item of page) {
      expect(item.create_time.slice(0, 10) >= from && item.create_time.slice(0, 10) <= to).toBe(true);
    }
    const all = (await transactions({ size: 100 })).body.data as Transaction[];
    const expected = all.filter((item) => item.create_time.slice(0, 10) >= from && item.create_time.slice(0, 10) <= to);
    expect(page.map((item) => item.id)).toEqual(expected.map((item) => item.id));
  });

  it('allows at most 31 days between from_date and to_date', async () => {
    const ok = await transactions({ from_date: sandboxDay(sandbox, -31), to_date: sandboxDay(sandbox) });
    expect(ok.status).toBe(200);
    const tooLong = await transactions({ from_date: sandboxDay(sandbox, -32), to_date: sandboxDay(sandbox) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(envelopeError(400, 'date range must not exceed 31 days'));
  });

  it.each([
    [{ from_date: '2026-01-01' }, 'from_date and to_date must be given together'],
    [{ to_date: '2026-01-01' }, 'from_date and to_date must be given together'],
    [{ from_date: '2026-01-10', to_date: '2026-01-01' }, 'from_date must not be after to_date'],
    [{ from_date: '01/01/2026', to_date: '2026-01-05' }, 'from_date must be a date in the form YYYY-MM-DD'],
    [{ from_date: '2026-01-01', to_date: '2026-02-30' }, 'to_date must be a date in the form YYYY-MM-DD'],
    [{ page: 0 }, 'page must be at least 1'],
    [{ page: 'two' }, 'page must be an integer'],
    [{ size: 101 }, 'size must be at most 100'],
    [{ size: 0 }, 'size must be at least 1'],
    [{ size: 2.5 }, 'size must be an integer'],
  ])('rejects %j', async (query, message) => {
    const response = await transactions(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('requires x-account-id and a known account', async () => {
    expect((await transactions({}, null)).body).toEqual(envelopeError(400, 'x-account-id is a required header and is missing'));
    expect((await transactions({}, 'acc_nope')).body).toEqual(envelopeError(400, 'Account acc_nope not found'));
  });

  it('keeps the history of a closed account, ending at its closure', async () => {
    const page = (await transactions({ size: 100 }, 'acc_demo_hkd')).body.data as Transaction[];
    expect(page.length).toBeGreaterThan(0);
    const newestAgeDays = (sandbox.clock.now().getTime() - timeOf(page[0] as Transaction)) / 86_400_000;
    expect(newestAgeDays).toBeGreaterThan(30);
  });
});

describe('GET /svc/api/v1/account/balance/history', () => {
  it('returns entries with the fields of section 2.6, newest first', async () => {
    const response = await api.get(HISTORY_PATH, { query: { size: 50 } });
    expect(response.body).toMatchObject({ code: 200, status: 'success', message: 'Balance history retrieved successfully' });
    const entries = response.body.data as HistoryEntry[];
    expect(entries).toHaveLength(50);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([
        'amount',
        'balance',
        'create_time',
        'currency',
        'description',
        'fee',
        'id',
        'source_type',
        'transaction_type',
      ]);
      expect(entry.create_time).toMatch(API_TIME);
      expect(entry.fee).toBeGreaterThanOrEqual(0);
    }
    const times = entries.map(timeOf);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('has consistent running balances per currency, with negative payouts and positive deposits', async () => {
    const history = (await fullHistory()).reverse();
    expect(new Set(history.map((entry) => entry.currency))).toEqual(new Set(['USD', 'EUR', 'GBP', 'SGD', 'HKD']));
    const previous = new Map<string, number>();
    for (const entry of history) {
      const before = previous.get(entry.currency);
      if (before !== undefined) expect(cents(entry.balance)).toBe(before + cents(entry.amount));
      previous.set(entry.currency, cents(entry.balance));
      expect(entry.balance).toBeGreaterThanOrEqual(0);
      if (entry.transaction_type === 'PAYOUT') {
        expect(entry).toMatchObject({ source_type: 'PAYOUT' });
        expect(entry.amount).toBeLessThan(0);
        expect(entry.fee).toBeGreaterThan(0);
      } else if (entry.transaction_type === 'CONVERSION_SELL') {
        // The debit leg of the demo conversions (issue 3 contract).
        expect(entry).toMatchObject({ source_type: 'CONVERSION', fee: 0 });
        expect(entry.amount).toBeLessThan(0);
      } else if (entry.transaction_type === 'CARD_LOAD') {
        // The demo wallet's load from the USD balance (issue 4 contract).
        expect(entry).toMatchObject({ source_type: 'CARD', currency: 'USD', amount: -600, fee: 0 });
      } else if (entry.source_type === 'DIRECT_DEBIT') {
        // The demo direct debits settled (debits) and one returned (a credit), issue 6 contract.
        expect(entry.fee).toBe(0);
        expect(Math.sign(entry.amount)).toBe(entry.transaction_type === 'DIRECT_DEBIT_RETURN' ? 1 : -1);
      } else {
        expect(entry.amount).toBeGreaterThan(0);
        expect([
          ['DEPOSIT', 'DEPOSIT'],
          ['CONVERSION', 'CONVERSION_BUY'],
        ]).toContainEqual([entry.source_type, entry.transaction_type]);
      }
    }
    expect(new Set(history.map((entry) => entry.transaction_type))).toEqual(
      new Set(['PAYOUT', 'DEPOSIT', 'CONVERSION_BUY', 'CONVERSION_SELL', 'CARD_LOAD', 'DIRECT_DEBIT', 'DIRECT_DEBIT_RETURN']),
    );
  });

  it('matches settled account transactions: a payout moves the balance by amount plus fee', async () => {
    const [debit] = ((await transactions({ size: 100 })).body.data as Transaction[]).filter(
      (item) => item.type === 'DEBIT' && item.status === 'SETTLED',
    );
    const entry = (await fullHistory()).find((candidate) => candidate.id === debit?.id.replace('txn_', 'bh_'));
    expect(entry).toBeDefined();
    expect(cents(entry?.amount ?? 0)).toBe(-(cents(debit?.amount ?? 0) + cents(entry?.fee ?? 0)));
    expect(entry?.create_time).toBe(debit?.create_time);
  });

  it('allows at most 7 days and filters on the day', async () => {
    const from = sandboxDay(sandbox, -8);
    const to = sandboxDay(sandbox, -1);
    const week = await api.get(HISTORY_PATH, { query: { from_date: from, to_date: to, size: 100 } });
    expect(week.status).toBe(200);
    for (const entry of week.body.data as HistoryEntry[]) {
      expect(entry.create_time.slice(0, 10) >= from && entry.create_time.slice(0, 10) <= to).toBe(true);
    }
    const tooLong = await api.get(HISTORY_PATH, { query: { from_date: sandboxDay(sandbox, -9), to_date: to } });
    expect(tooLong.body).toEqual(envelopeError(400, 'date range must not exceed 7 days'));
    const alone = await api.get(HISTORY_PATH, { query: { to_date: to } });
    expect(alone.body).toEqual(envelopeError(400, 'from_date and to_date must be given together'));
  });

  it('needs no x-account-id', async () => {
    expect((await api.get(HISTORY_PATH)).status).toBe(200);
  });
});

describe('demo data', () => {
  it('is identical in every sandbox and after a reset', async () => {
    const other = await startTestSandbox();
    try {
      const snapshot = (target: Sandbox) => ({
        accounts: [...target.store.accounts.values()].map((record) => record.account),
        transactions: [...target.store.transactions.keys()],
        history: [...target.store.balanceHistory.values()].map((record) => [record.id, record.entry.amount, record.entry.balance]),
        balances: [...target.store.balances.values()],
      });
      expect(snapshot(other)).toEqual(snapshot(sandbox));
      other.reset();
      expect(snapshot(other)).toEqual(snapshot(sandbox));
    } finally {
      await other.close();
    }
  });

  it('can be left out', async () => {
    const empty = await startTestSandbox({ seed: false });
    try {
      expect(empty.store.accounts.size).toBe(0);
      expect(empty.store.balanceHistory.size).toBe(0);
    } finally {
      await empty.close();
    }
  });
});
