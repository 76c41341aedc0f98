import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/events/models.ts';
import { ALL_PERMISSIONS } from '../../src/authorization/permissions.ts';
import { EVENT_PERMISSIONS, UNKNOWN_EVENT_PERMISSIONS } from '../../src/schema/event-visibility.ts';
import { bankEvent, deliverEvent } from '../helpers/deliver.ts';
import { useJwtKit } from '../helpers/jwt-kit.ts';
import { subscribeLegacyWs, subscribeSse, subscribeWs, type Subscription } from '../helpers/subscribe.ts';

/**
 * An event carries the permission of the record it is about: a subscriber gets an event only when
 * it may read the domain of the event's resource (a card's events need cards:read, a cardholder's
 * cardholders:read, a deposit's accounts:read...), whatever the stream, the transport or the replay
 * with `after`. `events:read` opens the stream of every event, not the records behind them. The raw
 * payload (`BankEvent.data`) leaves out the parts of another domain the caller may not read.
 */

// Reads are counted for the sharing test: the record cache stays off.
const { kit, bearer } = useJwtKit({ listen: true, cache: false });

const READS = ALL_PERMISSIONS.filter((permission) => permission.endsWith(':read'));

/** JWT callers by what they hold (OAuth scopes naming permissions, or a role). */
const callers = {
  admin: () => bearer('admin-console', { roles: ['admin'] }),
  eventsOnly: () => bearer('events-feed', { scope: 'events:read' }),
  // The business's own records: account status, RFIs, deposits; nothing of cards or cardholders.
  business: () => bearer('finance-feed', { scope: 'events:read business:read accounts:read' }),
  // Every read but one: every known kind, but not an event the gateway has no model for.
  allButWebhooks: () => bearer('almost-viewer', { scope: READS.filter((p) => p !== 'webhooks:read').join(' ') }),
  payouts: () => bearer('payout-feed', { scope: 'events:read payouts:read' }),
};

let sequence = 0;
const unique = (resource: string) => `${resource}_${++sequence}`;

/** One event of every kind the gateway models, and one it has no model for; the names in order. */
function everyKind() {
  const card = unique('crd_perm');
  const holder = unique('chd_perm');
  return [
    bankEvent(`${card}_issuing.card.blocked`, 'issuing.card.blocked', { card_id: card, cardholder_id: holder, card_status: 'INACTIVE' }),
    bankEvent(unique('txn_perm'), 'issuing.transaction.succeeded', {
      card_id: card,
      cardholder_id: holder,
      transaction_id: unique('txn'),
      transaction_type: 'PURCHASE',
      transaction_amount: 42.5,
      transaction_currency: 'USD',
      status: 'APPROVED',
      merchant: { name: 'Corner Cafe', category_code: '5814' },
    }),
    bankEvent(`${holder}_issuing.cardholder.ready`, 'issuing.cardholder.ready', {
      cardholder_id: holder,
      email: 'ava@example.com',
      status: 'READY',
      type: 'INDIVIDUAL',
    }),
    bankEvent(`${unique('dep_perm')}_PENDING`, 'ga.new', {
      amount: 100,
      ccy: 'USD',
      process_status: 'PENDING',
      settlement_info: { payer_name: 'Acme', beneficiary_account_number: '123' },
    }),
    bankEvent(`${unique('conv_perm')}_conversion.settled`, 'conversion.settled', { conversion_id: unique('conv'), status: 'SETTLED' }),
    bankEvent(`${unique('po_perm')}_payout.transfer.funding.funded`, 'payout.transfer.funding.funded', {
      id: unique('po'),
      funding: { status: 'FUNDED' },
    }),
    bankEvent(`${unique('dd_perm')}_SETTLED`, 'direct_debit.status_changed', { transaction_id: unique('dd'), status: 'SETTLED' }),
    bankEvent(`${unique('rfi_perm')}_rfi.action_required`, 'rfi.action_required', { id: unique('rfi'), type: 'KYC' }),
    bankEvent(unique('evt_perm'), 'issuing.card.renewed', { card_id: card, cardholder_id: holder }),
  ];
}

/** The last event of a batch: the business's own, so every caller that holds business:read sees it. */
const marker = () => bankEvent(`${unique('acct_perm')}_account.suspended`, 'account.suspended', { status: 'SUSPENDED' });

async function deliverAll(events: ReturnType<typeof bankEvent>[]): Promise<void> {
  for (const event of events) expect((await deliverEvent(kit.baseUrl, event)).status).toBe(202);
}

const names = (subscription: Subscription) => subscription.received.map((result) => result.data.bankEvents.name);

const ALL_NAMES = [
  'issuing.card.blocked',
  'issuing.transaction.succeeded',
  'issuing.cardholder.ready',
  'ga.new',
  'conversion.settled',
  'payout.transfer.funding.funded',
  'direct_debit.status_changed',
  'rfi.action_required',
  'issuing.card.renewed',
  'account.suspended',
];
const BUSINESS_NAMES = ['ga.new', 'rfi.action_required', 'account.suspended'];
const ALL_BUT_UNKNOWN = ALL_NAMES.filter((name) => name !== 'issuing.card.renewed');

const BANK_EVENTS = 'subscription ($after: String) { bankEvents(after: $after) { name cursor } }';

type Subscribe = (headers: Record<string, string>, variables?: Record<string, unknown>) => Promise<Subscription>;

const transports: [string, Subscribe][] = [
  ['graphql-ws', (headers, variables) => subscribeWs(kit, BANK_EVENTS, variables, headers)],
  ['SSE', (headers, variables) => subscribeSse(kit, BANK_EVENTS, variables, headers)],
  ['the legacy graphql-ws subprotocol', (headers, variables) => subscribeLegacyWs(kit, BANK_EVENTS, variables, headers)],
];

describe('the table of event permissions', () => {
  it('gives every kind of event the gateway models a read permission', () => {
    for (const kind of EVENT_KINDS) {
      expect(EVENT_PERMISSIONS[kind], `no permission for ${kind} events`).toBeDefined();
      expect(EVENT_PERMISSIONS[kind].read).toMatch(/:read$/);
    }
    expect(Object.keys(EVENT_PERMISSIONS).sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('asks every read permission for an event it has no model for', () => {
    expect([...UNKNOWN_EVENT_PERMISSIONS].sort()).toEqual(READS.sort());
  });
});

describe('bankEvents delivers an event only to a caller who may read its resource', () => {
  for (const [transport, subscribe] of transports) {
    it(`over ${transport}`, async () => {
      const admin = await subscribe(await callers.admin());
      const eventsOnly = await subscribe(await callers.eventsOnly());
      const business = await subscribe(await callers.business());
      const almost = await subscribe(await callers.allButWebhooks());
      await deliverAll([...everyKind(), marker()]);

      await admin.next(ALL_NAMES.length);
      await almost.next(ALL_BUT_UNKNOWN.length);
      await business.next(BUSINESS_NAMES.length);
      // Each stream is in order: the marker came last, so whatever was coming before it has come.
      expect(names(admin)).toEqual(ALL_NAMES);
      expect(names(almost)).toEqual(ALL_BUT_UNKNOWN);
      expect(names(business)).toEqual(BUSINESS_NAMES);
      expect(eventsOnly.received).toEqual([]);
      for (const subscription of [admin, eventsOnly, business, almost]) await subscription.close();
    });
  }

  it('in the catch-up with `after` too, then live', async () => {
    const first = await subscribeWs(kit, BANK_EVENTS, {}, await callers.admin());
    await deliverAll([marker()]);
    const [seen] = await first.next(1);
    await first.close();
    await deliverAll(everyKind());

    const after = { after: seen.data.bankEvents.cursor };
    const admin = await subscribeWs(kit, BANK_EVENTS, after, await callers.admin());
    const eventsOnly = await subscribeSse(kit, BANK_EVENTS, after, await callers.eventsOnly());
    const business = await subscribeSse(kit, BANK_EVENTS, after, await callers.business());
    const legacy = await subscribeLegacyWs(kit, BANK_EVENTS, after, await callers.business());
    await deliverAll([marker()]);

    await admin.next(ALL_NAMES.length);
    await business.next(BUSINESS_NAMES.length);
    await legacy.next(BUSINESS_NAMES.length);
    expect(names(admin)).toEqual(ALL_NAMES);
    expect(names(business)).toEqual(BUSINESS_NAMES);
    expect(names(legacy)).toEqual(BUSINESS_NAMES);
    expect(eventsOnly.received).toEqual([]);
    for (const subscription of [admin, eventsOnly, business, legacy]) await subscription.close();
  });

  it('with names given, still only the permitted ones', async () => {
    const query = 'subscription { bankEvents(names: ["issuing.transaction.succeeded", "ga.new", "account.suspended"]) { name } }';
    const business = await subscribeWs(kit, query, {}, await callers.business());
    const admin = await subscribeWs(kit, query, {}, await callers.admin());
    await deliverAll([...everyKind(), marker()]);
    await admin.next(3);
    await business.next(2);
    expect(names(admin)).toEqual(['issuing.transaction.succeeded', 'ga.new', 'account.suspended']);
    expect(names(business)).toEqual(['ga.new', 'account.suspended']);
    await admin.close();
    await business.close();
  });
});

describe("an event's raw payload", () => {
  /** A payout funding event as Document 3 shows it: the beneficiary's bank details and the business as payer. */
  const funded = () =>
    bankEvent(`${unique('po_data')}_payout.transfer.funding.funded`, 'payout.transfer.funding.funded', {
      id: unique('po'),
      status: 'SCHEDULED',
      funding: { status: 'FUNDED' },
      transfer_amount: 900,
      transfer_currency: 'EUR',
      beneficiary: {
        bank_details: { account_name: 'Jane Roe', account_number: 'DE89370400440532013000' },
        company_name: 'Roe GmbH',
        entity_type: 'COMPANY',
      },
      payer: { company_name: 'Acme Ltd', entity_type: 'COMPANY' },
    });
  const FUNDED = 'subscription { bankEvents(names: ["payout.transfer.funding.funded"]) { name data } }';

  it("leaves out another domain's parts for a caller who may not read them, on one shared operation", async () => {
    // The admin first: a result shared across permissions would hand its whole payload to the others.
    const admin = await subscribeWs(kit, FUNDED, {}, await callers.admin());
    const payouts = await subscribeWs(kit, FUNDED, {}, await callers.payouts());
    const typed = await subscribeWs(
      kit,
      'subscription { payoutFundingUpdated { fundingStatus event { data } } }',
      {},
      await bearer('payout-screen', { scope: 'payouts:read' }),
    );
    await deliverAll([funded()]);

    const [full] = await admin.next(1);
    expect(full.data.bankEvents.data).toMatchObject({
      beneficiary: { company_name: 'Roe GmbH' },
      payer: { company_name: 'Acme Ltd' },
      transfer_amount: 900,
    });
    const [narrow] = await payouts.next(1);
    const { beneficiary: _beneficiary, payer: _payer, ...payoutParts } = full.data.bankEvents.data;
    expect(narrow.data.bankEvents.data).toEqual(payoutParts);
    const [update] = await typed.next(1);
    expect(update.data.payoutFundingUpdated).toEqual({ fundingStatus: 'FUNDED', event: { data: payoutParts } });
    for (const subscription of [admin, payouts, typed]) await subscription.close();
  });
});

describe('sharing one execution', () => {
  const CARD = 'subscription { cardStatusChanged { status card { upstreamId } } }';
  const blocked = () =>
    bankEvent(`crd_demo_ava_v_issuing.card.blocked`, 'issuing.card.blocked', { card_id: 'crd_demo_ava_v', card_status: 'INACTIVE' });

  it('is kept among callers who hold the same permissions, and apart from the others', async () => {
    const same = [
      await subscribeWs(kit, CARD, {}, await bearer('card-screen-1', { scope: 'cards:read' })),
      await subscribeWs(kit, CARD, {}, await bearer('card-screen-2', { scope: 'cards:read' })),
    ];
    const wider = await subscribeWs(kit, CARD, {}, await bearer('card-and-events', { scope: 'cards:read events:read' }));
    await kit.resetCounts();
    await deliverAll([{ ...blocked(), created_at: '2026-11-25T10:00:00+0000' }]);
    for (const subscription of [...same, wider]) {
      expect(await subscription.next(1)).toEqual([
        { data: { cardStatusChanged: { status: 'INACTIVE', card: { upstreamId: 'crd_demo_ava_v' } } } },
      ]);
    }
    // One read of the card for the two alike, one for the caller who may see more.
    expect(kit.calls().filter((call) => call.path.includes('/card') && !call.path.includes('cardholder'))).toHaveLength(2);
    for (const subscription of [...same, wider]) await subscription.close();
  });
});
