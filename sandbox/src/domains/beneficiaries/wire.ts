import { localClearingSystem } from '../../institutions.ts';
import type { BeneficiaryRecord } from './types.ts';

/** Create and update answer the id only: the two account fields are always null (section 2.7). */
export function writeResult(id: string) {
  return [{ id, beneficiary_account_currency: null, beneficiary_account_number: null }];
}

/** The read-back by id. */
export function beneficiaryView(record: BeneficiaryRecord) {
  return {
    beneficiary: record.beneficiary,
    id: record.id,
    nickname: record.nickname,
    payer_entity_type: record.payer_entity_type,
    transfer_methods: record.transfer_methods,
  };
}

/** A list entry: the keys of section 2.7, unused ones null. */
export function listEntry(record: BeneficiaryRecord) {
  const bank = record.beneficiary.bank_details;
  const local = record.transfer_methods.includes('LOCAL') && bank.account_currency !== null;
  return {
    beneficiaryId: record.id,
    fullName: record.beneficiary.company_name,
    nickname: record.nickname,
    bankDetails: {
      account_currency: bank.account_currency,
      account_name: bank.account_name,
      account_number: bank.account_number,
      bank_country_code: bank.bank_country_code,
      bank_name: bank.bank_name,
      swift_code: bank.swift_code,
      // The scheme a LOCAL transfer in that currency would clear through, as for accounts.
      local_clearing_system: local ? localClearingSystem(bank.account_currency ?? '') : null,
      account_routing_type1: bank.account_routing_type1,
      account_routing_value1: bank.account_routing_value1,
      account_routing_type2: null,
      account_routing_value2: null,
      bank_branch: null,
    },
  };
}
