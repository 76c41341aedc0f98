import { describe, expect, it } from 'vitest';
import {
  CARD_PATH,
  cardDetail,
  control,
  createCard,
  doneEnvelope,
  envelopeError,
  newEmails,
  readyCardholder,
  useSandbox,
  virtualCardBody,
} from './helpers.ts';

const t = useSandbox();

const CARD_NUMBER = '4000056655665556';
const MASKED = '400005******5556';

const assignBody = (overrides: Record<string, unknown> = {}) => ({
  cardholder_id: 'chd_demo_ava',
  card_number: CARD_NUMBER,
  card_currency: 'USD',
  card_mode: 'SINGLE',
  created_by: 'Jordan Miles',
  ...overrides,
});
const assign = (body: Record<string, unknown>) => t.api.send('POST', `${CARD_PATH}/assign`, { body });
const activate = (id: string, body: Record<string, unknown>) => t.api.send('POST', `${CARD_PATH}/activate`, { query: { id }, body });
const resetPin = (id: string, body: Record<string, unknown>) => t.api.send('POST', `${CARD_PATH}/pin`, { query: { id }, body });

/** Assigns the test card to Ava and returns its id and the e-mailed code. */
async function assigned(): Promise<{ id: string; code: string }> {
  const response = await assign(assignBody());
  expect(response.body).toEqual(doneEnvelope('Card assigned successfully'));
  const emails = (await control(t.sandbox, 'GET', '/emails')).body;
  const email = emails[emails.length - 1];
  return { id: email.cardId, code: email.activationCode };
}

describe('POST /svc/api/v1/card/assign', () => {
  it('gives the cardholder an INACTIVE, personalized, single-use physical card and e-mails a code', async () => {
    const response = await assign(assignBody());
    expect(response.status).toBe(200);
    expect(response.body).toEqual(doneEnvelope('Card assigned successfully'));
    expect(response.body).not.toHaveProperty('data');

    const emails = await newEmails(t.sandbox);
    expect(emails).toEqual([
      {
        to: 'ava.chen@acme.example',
        subject: `Activate your card ${MASKED}`,
        kind: 'card_activation',
        cardId: expect.stringMatching(/^crd_[0-9a-f]{16}$/),
        activationCode: expect.stringMatching(/^\d{6}$/),
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
    expect(Math.abs(Date.parse(emails[0]!.time) - t.sandbox.clock.now().getTime())).toBeLessThan(5_000);
    const id = emails[0]!.cardId;
    const listed = await t.api.get(CARD_PATH, { query: { id } });
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        cardHashId: id,
        cardStatus: 'INACTIVE',
        cardType: 'PHY',
        maskedCardNumber: MASKED,
        nameOnCard: 'Ava Chen',
      }),
    ]);
    const card = await cardDetail(t.api, id);
    expect(card).toMatchObject({
      form_factor: 'PHYSICAL',
      card_status: 'INACTIVE',
      card_number: MASKED,
      card_scheme: 'VISA',
      is_personalized: true,
      card_limit: 0,
      spending_controls: [],
      postal_address: { city: 'Oakland', country: 'US', line1: '415 Grand Avenue', line2: null, state: 'CA', postcode: '94610' },
      delivery_details: { delivery_mode: 'PRE_ISSUED', status: 'DELIVERED', tracked: false },
    });
    expect(t.sandbox.store.cards.get(id)?.controls.allowedTransactionCount).toBe('SINGLE');
  });

  it('accepts the creator written createdBy', async () => {
    expect((await assign(assignBody({ created_by: undefined, createdBy: 'Jordan Miles' }))).status).toBe(200);
  });

  it.each([
    [{ card_number: '400005665566' }, 'card_number must be 13 to 19 digits'],
    [{ card_number: '4000 0566 5566 5556' }, 'card_number must be 13 to 19 digits'],
    [{ card_number: '4000056655665557' }, 'card_number must pass the Luhn check'],
    [{ card_mode: 'MULTIPLE' }, 'card_mode must be SINGLE'],
    [{ card_currency: 'dollars' }, 'card_currency must be a 3-letter ISO-4217 code in capitals'],
    [{ created_by: undefined }, 'created_by is required'],
    [{ cardholder_id: 'chd_demo_new' }, 'Cardholder chd_demo_new is not READY'],
    [{ cardholder_id: 'chd_demo_ops' }, 'Cardholder chd_demo_ops is a DELEGATE and can hold only non-personalized cards'],
  ])('refuses %j: %s', async (overrides, message) => {
    const response = await assign(assignBody(overrides));
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('accepts 13- and 19-digit numbers, but never the same number twice', async () => {
    expect((await assign(assignBody({ card_number: '4222222222222' }))).status).toBe(200);
    expect((await assign(assignBody({ card_number: '6011000000000000001' }))).status).toBe(200);
    expect((await assign(assignBody())).status).toBe(200);
    expect((await assign(assignBody())).body).toEqual(envelopeError(400, 'card_number is already assigned to a card'));
  });

  it('waits for eKYC', async () => {
    const holder = await readyCardholder(t.sandbox, t.api, { kyc: false });
    const response = await holder.api.send('POST', `${CARD_PATH}/assign`, { body: assignBody({ cardholder_id: holder.id }) });
    expect(response.body).toEqual(envelopeError(400, 'eKYC must be completed before card issuance'));
  });
});

describe('POST /svc/api/v1/card/activate?id=', () => {
  it('activates an assigned card with the e-mailed code and a new PIN', async () => {
    const { id, code } = await assigned();
    const response = await activate(id, { activation_code: code, pin: '482913' });
    expect(response.body).toEqual(doneEnvelope('Card activated successfully'));
    expect((await cardDetail(t.api, id)).card_status).toBe('ACTIVE');
    expect((await activate(id, { activation_code: code, pin: '482913' })).body).toEqual(
      envelopeError(400, `Card ${id} is not an inactive physical card`),
    );
  });

  it('refuses a wrong code, a bad PIN, or either left out', async () => {
    const { id, code } = await assigned();
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await activate(id, { activation_code: wrong, pin: '482913' })).body).toEqual(
      envelopeError(400, 'activation_code is incorrect'),
    );
    expect((await activate(id, { activation_code: code, pin: '12345' })).body).toEqual(envelopeError(400, 'pin must be 6 digits'));
    expect((await activate(id, { activation_code: code, pin: '12a456' })).body).toEqual(envelopeError(400, 'pin must be 6 digits'));
    expect((await activate(id, { pin: '482913' })).body).toEqual(envelopeError(400, 'activation_code is required for an assigned card'));
    expect((await activate(id, { activation_code: code })).body).toEqual(envelopeError(400, 'pin is required for an assigned card'));
    expect((await cardDetail(t.api, id)).card_status).toBe('INACTIVE');
  });

  it('only activates inactive physical cards, and needs the id', async () => {
    expect((await activate('crd_demo_ava_v', {})).body).toEqual(envelopeError(400, 'Card crd_demo_ava_v is not an inactive physical card'));
    expect((await activate('crd_nope', {})).body).toEqual(envelopeError(400, 'Card crd_nope not found'));
    const noId = await t.api.send('POST', `${CARD_PATH}/activate`, { body: {} });
    expect(noId.body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
  });

  it('lets Update Card not skip activation', async () => {
    const { id } = await assigned();
    const response = await t.api.send('PATCH', CARD_PATH, { query: { id }, body: { card_status: 'ACTIVE', updated_by: 'Jordan Miles' } });
    expect(response.body).toEqual(envelopeError(400, `Card ${id} must be activated with Activate Card first`));
  });
});

describe('POST /svc/api/v1/card/pin?id=', () => {
  it('sets a new PIN on an activated assigned card', async () => {
    const { id, code } = await assigned();
    expect((await resetPin(id, { pin: '739104' })).body).toEqual(envelopeError(400, `Card ${id} is not activated yet`));
    await activate(id, { activation_code: code, pin: '482913' });
    const before = t.sandbox.store.cards.get(id)?.pinDigest;
    const response = await resetPin(id, { pin: '739104' });
    expect(response.body).toEqual(doneEnvelope('PIN reset successfully'));
    expect(t.sandbox.store.cards.get(id)?.pinDigest).not.toBe(before);
    expect(t.sandbox.store.cards.get(id)?.pinDigest).not.toContain('739104');
  });

  it('refuses a bad PIN, a card that was not assigned, and a missing id', async () => {
    const { id } = await assigned();
    expect((await resetPin(id, { pin: '7391' })).body).toEqual(envelopeError(400, 'pin must be 6 digits'));
    expect((await resetPin(id, {})).body).toEqual(envelopeError(400, 'pin is required'));
    expect((await resetPin('crd_demo_ava_v', { pin: '739104' })).body).toEqual(
      envelopeError(400, 'Card crd_demo_ava_v is not an assigned physical card'),
    );
    const noId = await t.api.send('POST', `${CARD_PATH}/pin`, { body: { pin: '739104' } });
    expect(noId.body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
  });

  it('refuses a closed card', async () => {
    const id = await createCard(t.api, virtualCardBody('chd_demo_ava'));
    await t.api.send('PATCH', CARD_PATH, { query: { id }, body: { card_status: 'CLOSED', updated_by: 'Jordan Miles' } });
    expect((await resetPin(id, { pin: '739104' })).body).toEqual(envelopeError(400, `Card ${id} is closed`));
  });
});
