import { formatApiTime } from '../../time.ts';

/** A deposit arriving on a global (virtual) account, as the deposit events describe it. */
declare module '../../events/bus.ts' {
  interface EventPayloads {
    'balance.ga.top_up': TopUpData;
    'deposit.rejected': DepositRejectedData;
    'deposit.settled': DepositSettledData;
    'ga.new': GaNewData;
  }
}

export interface Deposit {
  id: string;
  globalAccountId: string;
  accountNumber: string;
  beneficiaryName: string;
  currency: string;
  amount: number;
  payerName: string;
  payerBankName: string;
  reference: string;
  providerTransactionId: string;
  at: number;
}

/** Section 3, deposit processing: NEW, PENDING, then SETTLED, or FAILED. */
export type ProcessStatus = 'NEW' | 'PENDING' | 'SETTLED' | 'FAILED';

/** ga.new: exactly the documented fields; the deposit is named by the envelope id (`<deposit>_<status>`). */
export interface GaNewData {
  amount: number;
  ccy: string;
  transaction_type: 'DEPOSIT';
  process_status: ProcessStatus;
  settlement_info: { beneficiary_account_number: string; beneficiary_name: string; payer_name: string };
}

export interface TopUpData {
  ccy: string;
  amount: number;
  /** The currency's available balance once credited. */
  balance: number;
  type: 'DEPOSIT';
  transaction_reference: { deposit_id: string; global_account_id: string; payer_name: string; payer_bank_name: string };
  reference: string;
  created_at: string;
}

export interface DepositRejectedData {
  id: string;
  amount: number;
  currency: string;
  fee: { amount: number; currency: string } | Record<string, never>;
  global_account_id: string;
  payer: { name: string };
  provider_transaction_id: string;
  reference: string;
  status: 'SETTLED' | 'REJECTED';
  type: 'BANK_TRANSFER';
}

export interface DepositSettledData extends DepositRejectedData {
  /** Epoch ms. */
  settled_at: number;
}

export function gaNewData(deposit: Deposit, process_status: ProcessStatus): GaNewData {
  return {
    amount: deposit.amount,
    ccy: deposit.currency,
    transaction_type: 'DEPOSIT',
    process_status,
    settlement_info: {
      beneficiary_account_number: deposit.accountNumber,
      beneficiary_name: deposit.beneficiaryName,
      payer_name: deposit.payerName,
    },
  };
}

export function topUpData(deposit: Deposit, balance: number): TopUpData {
  return {
    ccy: deposit.currency,
    amount: deposit.amount,
    balance,
    type: 'DEPOSIT',
    transaction_reference: {
      deposit_id: deposit.id,
      global_account_id: deposit.globalAccountId,
      payer_name: deposit.payerName,
      payer_bank_name: deposit.payerBankName,
    },
    reference: deposit.reference,
    created_at: formatApiTime(deposit.at),
  };
}

/** The sandbox charges no deposit fee: settled deposits show a zero fee, rejected ones an empty object. */
export function depositRejectedData(deposit: Deposit): DepositRejectedData {
  return { ...depositFields(deposit), fee: {}, status: 'REJECTED' };
}

export function depositSettledData(deposit: Deposit): DepositSettledData {
  return { ...depositFields(deposit), fee: { amount: 0, currency: deposit.currency }, status: 'SETTLED', settled_at: deposit.at };
}

function depositFields(deposit: Deposit) {
  return {
    id: deposit.id,
    amount: deposit.amount,
    currency: deposit.currency,
    global_account_id: deposit.globalAccountId,
    payer: { name: deposit.payerName },
    provider_transaction_id: deposit.providerTransactionId,
    reference: deposit.reference,
    type: 'BANK_TRANSFER' as const,
  };
}
