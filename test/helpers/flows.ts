import { encodeGlobalID } from '@pothos/plugin-relay';
import {
  BalancesDocument,
  QuoteCreateDocument,
  type BeneficiaryCreateInput,
  type PayoutCreateInput,
  type QuoteCreateInput,
} from '../generated/graphql.ts';
import type { Kit } from './kit.ts';

/** Steps several test files take through GraphQL: a quote, a payout's input, a balance, money in cents. */

/** Upstream paths tests count calls on. */
export const PATHS = {
  balance: '/svc/api/v1/account/balance',
  account: '/svc/api/v1/account',
  login: '/api/v1/authentication/login',
  payout: '/svc/api/v1/transfer/payout',
} as const;

/** An account the sandbox can open (GBP, local transfers). */
export const ACCOUNT_INPUT = {
  country: 'GB',
  currency: 'GBP',
  requiredFeatures: [{ currency: 'GBP', transferMethod: 'LOCAL' as const }],
};

export const GERMAN_SUPPLIER = encodeGlobalID('Beneficiary', 'ben_demo_de');

/** A date `offset` days from today, YYYY-MM-DD. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A valid payout of 1000 USD to the demo German supplier, on a fresh payout quote, in three days. */
export async function payoutInput(kit: Kit, overrides: Partial<PayoutCreateInput> = {}): Promise<PayoutCreateInput> {
  const quote = await createQuote(kit, { quoteType: 'PAYOUT', lockPeriod: 'HOUR_1' });
  return {
    beneficiaryId: GERMAN_SUPPLIER,
    quoteId: quote.id,
    sourceCurrency: 'USD',
    destinationCurrency: 'EUR',
    sourceAmount: '1000',
    destinationCountry: 'DE',
    feeType: 'OUR',
    transferMethod: 'SWIFT',
    reference: 'Invoice 2026-114',
    sourceOfFunds: 'Business revenue',
    scheduledDate: day(3),
    ...overrides,
  };
}

/** A conversion quote of USD 1,000 to EUR, locked 15 minutes, converted the next day. */
export const QUOTE_INPUT: QuoteCreateInput = {
  quoteType: 'CONVERSION',
  lockPeriod: 'MINUTES_15',
  conversionSchedule: 'NEXT_DAY',
  sourceCurrency: 'USD',
  destinationCurrency: 'EUR',
  sourceAmount: '1000',
};

/** A US supplier paid by SWIFT: a beneficiary the sandbox's rules accept. */
export const SUPPLIER: BeneficiaryCreateInput = {
  transferMethods: ['SWIFT'],
  beneficiary: {
    entityType: 'COMPANY',
    companyName: 'Initech LLC',
    address: { streetAddress: '4120 Freidrich Lane', city: 'Austin', postcode: '78744', state: 'US-TX', countryCode: 'US' },
    bankDetails: {
      bankCountryCode: 'US',
      accountCurrency: 'USD',
      accountName: 'Initech LLC',
      accountNumber: '987654321',
      bankName: 'Frost Bank',
      swiftCode: 'FRSTUS44',
    },
  },
};

export async function createQuote(kit: Kit, overrides: Partial<QuoteCreateInput> = {}) {
  const result = await kit.execute(QuoteCreateDocument, {
    input: { ...QUOTE_INPUT, ...overrides },
  });
  const outcome = result.data!.quoteCreate;
  if (outcome.__typename !== 'QuoteCreateSuccess') throw new Error(`quote failed: ${JSON.stringify(result)}`);
  return outcome.quote;
}

export async function balance(kit: Kit, currency: string) {
  const result = await kit.execute(BalancesDocument, { currency });
  const found = result.data?.balances?.[0];
  if (!found) throw new Error(`no ${currency} balance: ${JSON.stringify(result)}`);
  return found;
}

/** Decimal text → integer cents, so tests compare money without float drift. */
export const cents = (amount: string) => Math.round(Number(amount) * 100);
