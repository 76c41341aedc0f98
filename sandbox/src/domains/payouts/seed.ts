import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay, utcDay } from '../../time.ts';
import { openPayout } from './factory.ts';

const HOUR_MS = 3_600_000;
const SCHEDULED_IN_DAYS = 3;

/**
 * One PENDING payout of 2,500 USD to the UK beneficiary in GBP, arranged yesterday evening
 * and due in three days, so the upcoming list is never empty on a fresh sandbox. Nothing
 * is debited until it processes. Needs the beneficiaries seed before it.
 */
export function seedPayouts(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  const createdAt = today - DAY_MS + 21 * HOUR_MS;
  const beneficiary = store.beneficiaries.get('ben_demo_gb');
  if (beneficiary === undefined) throw new Error('the payouts seed needs the demo beneficiaries');
  const quote = store.services.createQuote(
    store,
    {
      quoteType: 'payout',
      lockPeriod: '15_mins',
      conversionSchedule: 'immediate',
      sourceCurrency: 'USD',
      destinationCurrency: 'GBP',
      fixed: { side: 'source', amount: 2_500 },
    },
    createdAt - 5 * 60_000,
    'quo_demo_pay_1',
  );
  openPayout(store, {
    id: 'pay_demo_1',
    systemReferenceNumber: 'PAY1000000001',
    beneficiary,
    quote,
    destinationCountry: 'GB',
    feeType: 'SHA',
    transferMethod: 'LOCAL',
    reference: 'Invoice CL-2291',
    sourceOfFunds: 'Business revenue',
    scheduledPayoutDate: utcDay(today + SCHEDULED_IN_DAYS * DAY_MS),
    createdAt,
  });
}
