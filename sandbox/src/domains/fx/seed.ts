import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { openConversion } from './conversions.ts';
import { createQuote } from './quotes.ts';
import type { FixedAmount } from '../../rates.ts';

interface DemoConversion {
  id: string;
  quoteId: string;
  systemReferenceNumber: string;
  source: string;
  destination: string;
  fixed: FixedAmount;
  /** UTC hour of yesterday. */
  hour: number;
}

const HOUR_MS = 3_600_000;
const QUOTE_LEAD_MS = 5 * 60_000;

/**
 * Yesterday evening, after the seeded activity window (08:00-18:00 UTC), so the two legs of
 * each land at the end of the history and no earlier running balance moves.
 */
const DEMO_CONVERSIONS: readonly DemoConversion[] = [
  {
    id: 'cnv_demo_1',
    quoteId: 'quo_demo_cnv_1',
    systemReferenceNumber: 'CNV1000000001',
    source: 'USD',
    destination: 'EUR',
    fixed: { side: 'source', amount: 10_000 },
    hour: 19,
  },
  {
    id: 'cnv_demo_2',
    quoteId: 'quo_demo_cnv_2',
    systemReferenceNumber: 'CNV1000000002',
    source: 'USD',
    destination: 'GBP',
    fixed: { side: 'destination', amount: 5_000 },
    hour: 20,
  },
];

/**
 * Two immediate conversions, each against its own (used) quote. They settle when the seed
 * runs the work due as of now (seed.ts), through the same ledger path as live ones.
 */
export function seedFx(store: SandboxStore, now: number): void {
  const yesterday = startOfUtcDay(now) - DAY_MS;
  for (const demo of DEMO_CONVERSIONS) {
    const at = yesterday + demo.hour * HOUR_MS;
    const spec = {
      quoteType: 'conversion' as const,
      lockPeriod: '15_mins' as const,
      conversionSchedule: 'immediate' as const,
      sourceCurrency: demo.source,
      destinationCurrency: demo.destination,
      fixed: demo.fixed,
    };
    const quote = createQuote(store, spec, at - QUOTE_LEAD_MS, demo.quoteId);
    openConversion(store, quote, at, { id: demo.id, systemReferenceNumber: demo.systemReferenceNumber }, false);
  }
  // Two unused quotes of 1,000 USD into EUR, locked for 24 hours from the seed: what the README's
  // payoutCreate and conversionCreate examples run against.
  const ready = {
    lockPeriod: '24_hours' as const,
    sourceCurrency: 'USD',
    destinationCurrency: 'EUR',
    fixed: { side: 'source' as const, amount: 1_000 },
  };
  createQuote(store, { ...ready, quoteType: 'payout', conversionSchedule: 'immediate' }, now, 'quo_demo_payout');
  createQuote(store, { ...ready, quoteType: 'conversion', conversionSchedule: 'next_day' }, now, 'quo_demo_conversion');
}
