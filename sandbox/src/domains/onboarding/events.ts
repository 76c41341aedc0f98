import type { UserProfile } from './types.ts';
import { recordDefault, type EventDefault } from '../../events/defaults.ts';
import { businessProfile } from './profile.ts';

/** Section 6. These happen outside the sandbox's API: POST /sandbox/events emits them. */
interface BusinessAddress {
  address_line1: string;
  suburb: string;
  state: string;
  postcode: string;
  country_code: string;
}

declare module '../../events/bus.ts' {
  interface EventPayloads {
    'account.active': AccountActiveData;
    'account.submitted': Record<string, never>;
    'account.suspended': AccountSuspendedData;
    'rfi.action_required': RfiData;
  }
}

export interface AccountActiveData {
  account_details: {
    business_details: {
      address: BusinessAddress;
      address_english: { country_code: string; postcode: string };
      as_trustee: boolean;
      business_address: { address_line1: string };
    };
  };
}

export interface AccountSuspendedData {
  account_details: { business_details: { address: BusinessAddress; business_name: string; tax_id: { number: string; type: string } } };
  status: 'SUSPENDED';
}

interface RfiData {
  id: string;
  type: 'KYC' | 'AML' | 'ADDRESS' | 'IDENTITY';
}

function addressOf(profile: UserProfile): BusinessAddress {
  const { address_line1, suburb, state, postcode, country_code } = profile.account_details.business_address;
  return { address_line1, suburb, state, postcode, country_code };
}

function accountActiveData(profile: UserProfile): AccountActiveData {
  const address = addressOf(profile);
  return {
    account_details: {
      business_details: {
        address,
        address_english: { country_code: address.country_code, postcode: address.postcode },
        as_trustee: false,
        business_address: { address_line1: address.address_line1 },
      },
    },
  };
}

/** The tax id is the registration number the profile holds. */
function accountSuspendedData(profile: UserProfile): AccountSuspendedData {
  const details = profile.account_details;
  return {
    account_details: {
      business_details: {
        address: addressOf(profile),
        business_name: details.business_name,
        tax_id: { number: details.registration_number, type: 'BUSINESS_REGISTRATION_NUMBER' },
      },
    },
    status: 'SUSPENDED',
  };
}

export const onboardingEventDefaults = {
  'account.active': { idPrefix: 'user', data: ({ store }) => accountActiveData(businessProfile(store)) },
  'account.submitted': { idPrefix: 'user', data: () => ({}) },
  'account.suspended': { idPrefix: 'user', data: ({ store }) => accountSuspendedData(businessProfile(store)) },
  'rfi.action_required': recordDefault(
    'account RFI',
    (store) => store.accountRfis,
    ({ rfi }) => ({ id: rfi.id, type: rfi.type }),
  ),
} satisfies Record<string, EventDefault>;
