import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { enrolCardholder, type CardholderFields, type Enrolment } from './factory.ts';
import type { Address } from '../../address.ts';

const HOUR_MS = 3_600_000;

const HEAD_OFFICE: Address = {
  city: 'San Francisco',
  country: 'US',
  line1: '100 Market Street',
  line2: 'Suite 400',
  state: 'CA',
  postcode: '94105',
};

interface DemoCardholder {
  fields: CardholderFields;
  enrolledDaysAgo: number;
  seeded: NonNullable<Enrolment['seeded']>;
}

/** Fixed ids, so documentation, tests and the gateway's examples can name them. */
const DEMO_CARDHOLDERS: Readonly<Record<string, DemoCardholder>> = {
  chd_demo_ava: {
    enrolledDaysAgo: 60,
    seeded: { status: 'READY', kyc: 'COMPLETED' },
    fields: {
      email: 'ava.chen@acme.example',
      type: 'INDIVIDUAL',
      mobile_number: '+14155550123',
      country_code: 'US',
      postal_address: null,
      created_by: 'Jordan Miles',
      individual: {
        date_of_birth: '1988-03-14',
        name: { title: 'Ms', first_name: 'Ava', middle_name: null, last_name: 'Chen' },
        address: { city: 'Oakland', country: 'US', line1: '415 Grand Avenue', line2: null, state: 'CA', postcode: '94610' },
        identification: { country: 'US', expiry_date: '2031-05-31', number: 'P48213975', type: 'PASSPORT' },
        employers: [
          {
            business_identifiers: [{ country_code: 'US', number: 'C4839201', type: 'REGISTRATION_NUMBER' }],
            business_name: 'Acme Trading Ltd',
          },
        ],
      },
    },
  },
  // Acts for the business: no person, cards carry the business name.
  chd_demo_ops: {
    enrolledDaysAgo: 45,
    seeded: { status: 'READY', kyc: 'COMPLETED' },
    fields: {
      email: 'ops@acme.example',
      type: 'DELEGATE',
      mobile_number: '+14155550188',
      country_code: null,
      postal_address: HEAD_OFFICE,
      created_by: 'Jordan Miles',
      individual: null,
    },
  },
  // Held for a manual review the sandbox never decides, so the demo always shows a PENDING
  // cardholder (new ones pass review after 10 minutes, see review.ts).
  chd_demo_new: {
    enrolledDaysAgo: 1,
    seeded: { status: 'PENDING', kyc: 'PENDING' },
    fields: {
      email: 'liam.patel@acme.example',
      type: 'INDIVIDUAL',
      mobile_number: '+14155550164',
      country_code: 'GB',
      postal_address: null,
      created_by: 'Jordan Miles',
      individual: {
        date_of_birth: '1993-11-02',
        name: { title: null, first_name: 'Liam', middle_name: 'James', last_name: 'Patel' },
        address: { city: 'San Jose', country: 'US', line1: '88 South First Street', line2: 'Apt 12', state: 'CA', postcode: '95113' },
        identification: { country: 'GB', expiry_date: '2029-08-15', number: '533817264', type: 'PASSPORT' },
        employers: [],
      },
    },
  },
};

export function seedCardholders(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  for (const [id, demo] of Object.entries(DEMO_CARDHOLDERS)) {
    const createdAt = today - demo.enrolledDaysAgo * DAY_MS + 10 * HOUR_MS;
    enrolCardholder(store, structuredClone(demo.fields), { id, createdAt, seeded: demo.seeded });
  }
}
