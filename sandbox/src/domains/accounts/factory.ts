import { DEMO_BUSINESS_NAME } from '../../credentials.ts';
import type { Random } from '../../random.ts';
import type { SandboxStore } from '../../store.ts';
import { VIRTUAL_ACCOUNT } from '../../codes.ts';
import { bankFor, ibanCountry, localClearingSystem, withCheckDigits, type Bank } from '../../institutions.ts';
import type { Account, AccountStatus, RequiredFeature, RoutingCode, SupportedFeature } from './types.ts';

export interface AccountSpec {
  id: string;
  country: string;
  currency: string;
  label?: string | null | undefined;
  required_features: RequiredFeature[];
  status?: AccountStatus;
}

/**
 * Stores a new account and opens a zero balance for its currency when the user has none
 * yet. Used by Create Account and by the demo seed, so both produce the same shapes.
 */
export function openAccount(store: SandboxStore, spec: AccountSpec, createdAt: number, random: Random): Account {
  const taken = new Set([...store.accounts.values()].map(({ account }) => account.account_number));
  const account = buildAccount(spec, uniqueAccountNumber(bankFor(spec.country), random, taken));
  store.accounts.set(account.id, { id: account.id, createdAt, currency: spec.currency, account });
  if (!store.balances.has(spec.currency)) {
    store.balances.set(spec.currency, { currency: spec.currency, available_balance: 0, pending_amount: 0, reserved_amount: 0 });
  }
  return account;
}

function buildAccount(spec: AccountSpec, accountNumber: string): Account {
  const bank = bankFor(spec.country);
  const wantsSwift = spec.required_features.some((feature) => feature.transfer_method === 'SWIFT');
  return {
    id: spec.id,
    status: spec.status ?? 'ACTIVE',
    account_number: accountNumber,
    account_holder_name: DEMO_BUSINESS_NAME,
    // The contract types label as a string: an account opened without one has ''.
    label: spec.label ?? '',
    // "string or null" in the contract: the sandbox echoes the only creatable type.
    account_type: VIRTUAL_ACCOUNT,
    country_code: spec.country,
    institution: { ...bank.institution },
    supported_features: spec.required_features.map((feature) => supportedFeature(feature, bank)),
    required_features: spec.required_features.map((feature) => ({ ...feature })),
    swift_code: wantsSwift ? bank.swift : null,
    iban: ibanFor(spec, accountNumber),
  };
}

function supportedFeature(feature: RequiredFeature, bank: Bank): SupportedFeature {
  const local = feature.transfer_method === 'LOCAL';
  return {
    currency: feature.currency,
    local_clearing_system: local ? localClearingSystem(feature.currency) : null,
    transfer_method: feature.transfer_method,
    type: 'DEPOSIT',
    routing_codes: local ? localRoutingCodes(bank) : [{ type: 'swift', value: bank.swift }],
  };
}

function localRoutingCodes(bank: Bank): RoutingCode[] {
  const codes: RoutingCode[] = [{ type: 'bank_code', value: bank.bankCode }];
  if (bank.branchCode !== null) codes.push({ type: 'branch_code', value: bank.branchCode });
  return codes;
}

function uniqueAccountNumber(bank: Bank, random: Random, taken: ReadonlySet<string>): string {
  for (;;) {
    const candidate = `${random.int(1, 9)}${random.digits(bank.accountNumberLength - 1)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function ibanFor(spec: AccountSpec, accountNumber: string): string | null {
  const country = ibanCountry(spec.country, spec.currency);
  if (country === null) return null;
  const bank = bankFor(country);
  const local = accountNumber.slice(-bank.accountNumberLength).padStart(bank.accountNumberLength, '0');
  return withCheckDigits(country, `${bank.ibanBankCode ?? ''}${local}`);
}
