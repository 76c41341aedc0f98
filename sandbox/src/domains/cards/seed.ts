import { toCents } from '../../money.ts';
import type { SandboxStore } from '../../store.ts';
import { DAY_MS, startOfUtcDay } from '../../time.ts';
import { cardNumberParts, drawCardNumber } from './card-number.ts';
import { initialControls, issueCard } from './factory.ts';
import { loadCard } from './recharge.ts';
import { authorize, refund, settle, type Activity } from './simulate.ts';
import type { Merchant } from './types.ts';

const HOUR_MS = 3_600_000;

const merchant = (name: string, category_code: string, identifier: string): Merchant => ({
  name,
  category_code,
  city: 'San Francisco',
  country: 'US',
  identifier,
  postcode: '94105',
  state: 'CA',
});

/** The demo physical card's activation code (README, demo data): the one e-mailed to Ava. */
const DEMO_ACTIVATION_CODE = '428190';

const COFFEE = merchant('Blue Bottle Coffee', '5814', 'MID100000001');
const STATIONER = merchant('Office Depot', '5943', 'MID100000002');
const ELECTRONICS = merchant('Apple Store Union Square', '5732', 'MID100000003');

/**
 * Ava's USD wallet and her ACTIVE virtual USD card, opened a month ago. Yesterday evening,
 * after the other seeds' movements, the wallet was loaded with 600 USD from the business
 * balance and the card was used through the same paths as live activity: two purchases
 * (one settled), a decline over the 500 USD per-transaction limit and a 10 USD refund,
 * leaving 500 USD in the wallet. Ava also holds a pre-issued physical card, assigned and not yet
 * activated. Needs the cardholders seed before it.
 */
export function seedCards(store: SandboxStore, now: number): void {
  const today = startOfUtcDay(now);
  const at = (hours: number): number => today - DAY_MS + hours * HOUR_MS;
  const ava = store.cardholders.get('chd_demo_ava');
  if (ava === undefined) throw new Error('the cards seed needs the demo cardholders');
  const openedAt = today - 30 * DAY_MS + 10 * HOUR_MS;
  const wallet = store.services.openWallet(store, ava.id, 'USD', openedAt, 'wal_demo_ava');
  const limits = [
    { interval: 'PER_TRANSACTION' as const, amount: 500 },
    { interval: 'MONTHLY' as const, amount: 2_000 },
  ];
  const spec = {
    id: 'crd_demo_ava_v',
    cardholder: ava,
    type: 'VIRTUAL' as const,
    currency: 'USD',
    personalized: true,
    assigned: false,
    createdBy: 'Jordan Miles',
    number: cardNumberParts(drawCardNumber(store.random)),
    controls: initialControls('MULTIPLE', 'USD', limits),
    postalAddress: null,
  };
  const card = issueCard(store, null, spec, openedAt);
  const activity = (amount: number, where: Merchant, hours: number): Activity => ({
    program: 'CARDS',
    amountCents: toCents(amount),
    currency: 'USD',
    merchant: where,
    at: at(hours),
  });
  loadCard(store, card, wallet, 60_000, at(21.5));
  const coffee = authorize(store, card, activity(45.5, COFFEE, 22));
  authorize(store, card, activity(64.5, STATIONER, 22.5));
  authorize(store, card, activity(750, ELECTRONICS, 23));
  refund(store, card, activity(10, COFFEE, 23.25), coffee.id);
  settle(store, card, coffee.id, at(23.5));
  // A pre-issued physical card assigned to Ava yesterday, INACTIVE until activated with the code
  // e-mailed to her (DEMO_ACTIVATION_CODE): what cardActivate and cardPinReset are shown on.
  issueCard(
    store,
    null,
    {
      id: 'crd_demo_ava_p',
      cardholder: ava,
      type: 'PHYSICAL',
      currency: 'USD',
      personalized: true,
      assigned: true,
      createdBy: 'Jordan Miles',
      // A fixed test number: drawing one would move every later draw of the seeded random source.
      number: cardNumberParts('4000002500003155'),
      controls: initialControls('SINGLE', 'USD', []),
      postalAddress: ava.individual?.address ?? null,
      activationCode: DEMO_ACTIVATION_CODE,
    },
    at(12),
  );
}
