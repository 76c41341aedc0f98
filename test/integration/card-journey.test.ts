import { describe, expect, it } from 'vitest';
import {
  CardActivateDocument,
  CardAssignDocument,
  CardCreateDocument,
  CardFullDocument,
  CardholderCardsBriefDocument,
  CardholderCreateDocument,
  CardholderNodeDocument,
  CardholderOverviewDocument,
  CardRechargeDocument,
  CardTransactionsDocument,
  CardUpdateDocument,
  WalletCreateDocument,
} from '../generated/graphql.ts';
import { balance, cents } from '../helpers/flows.ts';
import { useKit } from '../helpers/kit.ts';

const kit = useKit();

/** A test card number: Luhn-valid, never to be seen again after cardAssign. */
const ASSIGNED_PAN = '4000056655665556';
const NEW_PIN = '482916';

function success<T extends { __typename: string }, N extends T['__typename']>(outcome: T, typename: N): Extract<T, { __typename: N }> {
  if (outcome.__typename !== typename) throw new Error(`expected ${typename}, got ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { __typename: N }>;
}

describe('one query for a cardholder screen', () => {
  it('returns cards with list and detail fields, transactions, wallet with history and KYC, repeating no upstream call', async () => {
    const result = await kit.execute(CardholderOverviewDocument, { id: 'chd_demo_ava' });
    expect(result.errors).toBeUndefined();
    const cardholder = result.data!.cardholder!;
    expect(cardholder).toMatchObject({ upstreamId: 'chd_demo_ava', status: 'READY', kyc: { status: 'COMPLETED' } });
    const card = cardholder.cards!.nodes.find((c) => c.upstreamId === 'crd_demo_ava_v')!;
    expect(card).toMatchObject({ type: 'VIRTUAL', status: 'ACTIVE', program: { purpose: 'COMMERCIAL' } });
    expect(card.transactions!.nodes.length).toBeGreaterThan(0);
    expect(cardholder.wallet).toMatchObject({ status: 'ACTIVE', amount: { currency: 'USD' } });
    expect(cardholder.wallet!.history!.nodes.length).toBeGreaterThan(0);

    const calls = kit
      .calls()
      .map((c) => `${c.method} ${c.path} ${JSON.stringify(kit.sandbox.requests().find((r) => r.requestId === c.requestId)?.query)}`);
    expect(new Set(calls).size).toBe(calls.length);
    const cards = cardholder.cards!.nodes.length;
    // cardholder, card list, one detail and one transactions page per card, wallet, history, KYC.
    expect(kit.calls()).toHaveLength(2 + 2 * cards + 3);
    expect(kit.calls('/svc/api/v1/card/detail')).toHaveLength(cards);
  });

  it('does not call the detail endpoint when no detail field is asked for', async () => {
    const result = await kit.execute(CardholderCardsBriefDocument, { id: 'chd_demo_ava' });
    expect(result.data!.cardholder!.cards!.nodes.length).toBeGreaterThan(0);
    expect(kit.calls('/svc/api/v1/card/detail')).toHaveLength(0);
    expect(kit.calls()).toHaveLength(2);
  });
});

describe('a cardholder from creation to spending', () => {
  it('creates, reviews, issues virtual and physical cards, activates, limits, recharges, spends and reads it all back', async () => {
    const created = await kit.execute(CardholderCreateDocument, {
      input: {
        type: 'INDIVIDUAL',
        email: 'sam.lee@acme.example',
        mobileNumber: '+14155550123',
        createdBy: 'Jane Doe',
        individual: {
          dateOfBirth: '1990-04-12',
          name: { firstName: 'Sam', lastName: 'Lee' },
          address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postcode: '94105', country: 'US' },
        },
      },
    });
    const cardholder = success(created.data!.cardholderCreate, 'CardholderCreateSuccess').cardholder;
    expect(cardholder.status).toBe('PENDING');

    await kit.control('POST', 'clock/advance', { minutes: 11 });
    await kit.control('POST', `kyc/${cardholder.upstreamId}/complete`);
    const ready = await kit.execute(CardholderNodeDocument, { id: cardholder.id });
    expect(ready.data!.node).toMatchObject({ status: 'READY' });

    const wallet = await kit.execute(WalletCreateDocument, { input: { cardholderId: cardholder.id, currency: 'USD' } });
    success(wallet.data!.walletCreate, 'WalletCreateSuccess');

    const virtual = await kit.execute(CardCreateDocument, {
      input: {
        cardholderId: cardholder.id,
        type: 'VIRTUAL',
        personalized: true,
        allowedTransactionCount: 'MULTIPLE',
        limitCurrency: 'USD',
        limits: [{ interval: 'PER_TRANSACTION', amount: '300' }],
        createdBy: 'Jane Doe',
      },
    });
    const virtualCard = success(virtual.data!.cardCreate, 'CardCreateSuccess').card;
    expect(virtualCard).toMatchObject({ type: 'VIRTUAL', status: 'ACTIVE' });

    const assigned = await kit.execute(CardAssignDocument, {
      input: { cardholderId: cardholder.id, cardNumber: ASSIGNED_PAN, currency: 'USD', createdBy: 'Jane Doe' },
    });
    const physicalCard = success(assigned.data!.cardAssign, 'CardAssignSuccess').result.card!;
    expect(physicalCard).toMatchObject({ type: 'PHYSICAL', status: 'INACTIVE', maskedNumber: '400005******5556' });

    const emails = (await kit.control('GET', 'emails')) as { cardId: string; activationCode: string }[];
    const code = emails.find((e) => e.cardId === physicalCard.upstreamId)!.activationCode;
    const wrong = await kit.execute(CardActivateDocument, { input: { cardId: physicalCard.id, activationCode: '000000', pin: NEW_PIN } });
    expect(wrong.data!.cardActivate).toMatchObject({ __typename: 'UpstreamRejection', upstreamMessage: 'activation_code is incorrect' });
    const activated = await kit.execute(CardActivateDocument, { input: { cardId: physicalCard.id, activationCode: code, pin: NEW_PIN } });
    expect(success(activated.data!.cardActivate, 'CardActivateSuccess').card.status).toBe('ACTIVE');

    const updated = await kit.execute(CardUpdateDocument, {
      input: { cardId: virtualCard.id, updatedBy: 'Jane Doe', currency: 'USD', limits: [{ interval: 'DAILY', amount: '150' }] },
    });
    expect(success(updated.data!.cardUpdate, 'CardUpdateSuccess').card.spendingControls).toEqual([
      { interval: 'DAILY', limit: { amount: '150', currency: 'USD' }, remaining: { amount: '150', currency: 'USD' } },
    ]);

    const usdBefore = await balance(kit, 'USD');
    const recharged = await kit.execute(CardRechargeDocument, { input: { cardId: virtualCard.id, amount: '250' } });
    expect(success(recharged.data!.cardRecharge, 'CardRechargeSuccess').card.availableBalance).toEqual({ amount: '250', currency: 'USD' });
    expect(cents((await balance(kit, 'USD')).available.amount)).toBe(cents(usdBefore.available.amount) - 25_000);

    const spend = (body: object) => kit.control('POST', `cards/${virtualCard.upstreamId}/simulate`, body);
    await spend({
      kind: 'authorization',
      amount: 40,
      merchant: { name: 'Blue Bottle Coffee', category_code: '5814', city: 'San Francisco', country: 'US' },
    });
    await spend({ kind: 'authorization', amount: 400 });

    const transactions = (await kit.execute(CardTransactionsDocument, { id: virtualCard.id, first: 10 })).data!.card!.transactions!.nodes;
    expect(transactions.map((t) => [t.type, t.status, t.amount.amount, t.failureReason])).toEqual([
      ['PURCHASE', 'DECLINED', '400', 'LIMIT_EXCEEDED'],
      ['PURCHASE', 'APPROVED', '40', null],
    ]);
    const full = (await kit.execute(CardFullDocument, { id: virtualCard.id })).data!.card!;
    expect(full.availableBalance).toEqual({ amount: '210', currency: 'USD' });
    expect(full.spendingControls![0]!.remaining).toEqual({ amount: '110', currency: 'USD' });

    const overview = (await kit.execute(CardholderOverviewDocument, { id: cardholder.id })).data!.cardholder!;
    expect(overview.cards!.nodes.map((c) => c.type).sort()).toEqual(['PHYSICAL', 'VIRTUAL']);
    expect(overview.wallet!.amount).toEqual({ amount: '210', currency: 'USD' });
    expect(overview.wallet!.history!.nodes.map((h) => [h.type, h.direction, h.amount!.amount])).toEqual([
      ['PURCHASE', 'DEBIT', '40'],
      ['LOAD', 'CREDIT', '250'],
    ]);
  });
});
