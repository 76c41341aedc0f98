import { fromCents, toCents } from '../../money.ts';
import type { RecordOf, SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import type { PayoutRecord } from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';

// Another domain's records, named through the core (store.ts).
type BeneficiaryRecord = RecordOf<'beneficiaries'>;

/** The payout events of Document 3, section 6, and their data. */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'payout.transfer.funding.funded': PayoutFundedData;
    'payout.transfer.funding.scheduled': PayoutScheduledData;
  }
}

interface BankDetails {
  account_name: string | null;
  account_number: string | null;
  account_currency: string | null;
  bank_name: string | null;
  bank_country_code: string | null;
  swift_code: string | null;
}

interface PostalAddress {
  street_address: string | null;
  city: string | null;
  state: string | null;
  country_code: string | null;
  postcode: string | null;
}

/** Fields both payout events share; amounts are doubles of the source and destination currencies. */
interface PayoutFields {
  id: string;
  amount_beneficiary_receives: number;
  amount_payer_pays: number;
  fee_amount: number;
  fee_currency: string;
  reference: string;
  short_reference_id: string;
  source_currency: string;
  status: string;
  transfer_amount: number;
  transfer_currency: string;
  transfer_method: string;
  updated_at: string;
}

export interface PayoutScheduledData extends PayoutFields {
  beneficiary: {
    address: PostalAddress;
    bank_details: BankDetails;
    company_name: string;
    entity_type: string | null;
    type: 'BANK_ACCOUNT';
  };
  fee_paid_by: 'PAYER';
  payer: {
    additional_info: { business_registration_number: string; business_registration_type: 'COMPANY'; business_incorporation_date: string };
    address: PostalAddress;
    company_name: string;
    entity_type: 'COMPANY';
  };
  funding: { status: 'SCHEDULED' };
  transfer_date: string;
  swift_charge_option: 'SHARED' | 'OUR';
  request_id: string;
  reason: string;
  remarks: string;
  created_at: string;
}

export interface PayoutFundedData extends PayoutFields {
  beneficiary: { bank_details: BankDetails; company_name: string; entity_type: string | null };
  funding: { status: 'FUNDED' };
  payer: { company_name: string; entity_type: 'COMPANY' };
}

function payoutFields(payout: PayoutRecord, at: number): PayoutFields {
  return {
    id: payout.id,
    amount_beneficiary_receives: payout.destinationAmount,
    amount_payer_pays: fromCents(toCents(payout.sourceAmount) + toCents(payout.fee)),
    fee_amount: payout.fee,
    fee_currency: payout.sourceCurrency,
    reference: payout.reference,
    short_reference_id: payout.systemReferenceNumber,
    source_currency: payout.sourceCurrency,
    status: payout.status,
    transfer_amount: payout.destinationAmount,
    transfer_currency: payout.destinationCurrency,
    transfer_method: payout.transferMethod,
    updated_at: formatApiTime(at),
  };
}

// The beneficiary as it is when the event fires; one deleted since is named by the payee name kept.
function beneficiaryOf(store: SandboxStore, payout: PayoutRecord) {
  const details = store.beneficiaries.get(payout.beneficiaryId)?.beneficiary;
  const bank = details?.bank_details;
  return {
    bank_details: {
      account_name: bank?.account_name ?? null,
      account_number: bank?.account_number ?? null,
      account_currency: bank?.account_currency ?? null,
      bank_name: bank?.bank_name ?? null,
      bank_country_code: bank?.bank_country_code ?? null,
      swift_code: bank?.swift_code ?? null,
    },
    company_name: details?.company_name ?? payout.payeeName,
    entity_type: details?.entity_type ?? null,
    address: addressOf(details?.address),
  };
}

function addressOf(address: BeneficiaryRecord['beneficiary']['address'] | undefined): PostalAddress {
  return {
    street_address: address?.street_address ?? null,
    city: address?.city ?? null,
    state: address?.state ?? null,
    country_code: address?.country_code ?? null,
    postcode: address?.postcode ?? null,
  };
}

/** payout.transfer.funding.scheduled, when the payout is created. reason is its reference, remarks its source of funds. */
export function payoutScheduledData(store: SandboxStore, payout: PayoutRecord): PayoutScheduledData {
  const { address, ...beneficiary } = beneficiaryOf(store, payout);
  const details = store.services.businessProfile(store).account_details;
  const registered = details.registration_address;
  return {
    ...payoutFields(payout, payout.createdAt),
    beneficiary: { address, ...beneficiary, type: 'BANK_ACCOUNT' },
    fee_paid_by: 'PAYER',
    payer: {
      additional_info: {
        business_registration_number: details.registration_number,
        business_registration_type: 'COMPANY',
        business_incorporation_date: details.incorporation_date,
      },
      address: {
        street_address: registered.line1,
        city: registered.city,
        state: registered.state,
        country_code: registered.country,
        postcode: registered.postal_code,
      },
      company_name: details.business_name,
      entity_type: 'COMPANY',
    },
    funding: { status: 'SCHEDULED' },
    transfer_date: payout.scheduledPayoutDate,
    swift_charge_option: payout.feeType === 'SHA' ? 'SHARED' : 'OUR',
    request_id: payout.id,
    reason: payout.reference,
    remarks: payout.sourceOfFunds,
    created_at: formatApiTime(payout.createdAt),
  };
}

/** payout.transfer.funding.funded, when the payout is debited and starts processing. */
export function payoutFundedData(store: SandboxStore, payout: PayoutRecord, at: number): PayoutFundedData {
  const { address: _address, ...beneficiary } = beneficiaryOf(store, payout);
  return {
    ...payoutFields(payout, at),
    beneficiary,
    funding: { status: 'FUNDED' },
    payer: { company_name: store.services.businessProfile(store).account_details.business_name, entity_type: 'COMPANY' },
  };
}

const payoutDefault = (build: (store: SandboxStore, record: PayoutRecord, at: number) => object): EventDefault =>
  recordDefault(
    'payout',
    (store) => store.payouts,
    (record, { store, at }) => build(store, record, at),
  );

export const payoutEventDefaults = {
  'payout.transfer.funding.funded': payoutDefault(payoutFundedData),
  'payout.transfer.funding.scheduled': payoutDefault((store, record) => payoutScheduledData(store, record)),
} satisfies Record<string, EventDefault>;
