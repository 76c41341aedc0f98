import { describe, expect, it } from 'vitest';
import { CARD_PATH, CARDHOLDER_PATH, DEMO_PHYSICAL_CARD, advanceMinutes, control, useSandbox } from './helpers.ts';

const t = useSandbox();

const VIRTUAL_CARD = 'crd_demo_ava_v';
const setCardStatus = (id: string, body: unknown) => control(t.sandbox, 'POST', `/cards/${id}/status`, body);
const setCardholderStatus = (id: string, body: unknown) => control(t.sandbox, 'POST', `/cardholders/${id}/status`, body);

/** The card and cardholder events GET /sandbox/events lists (moving the clock runs other demo work), as name and id. */
async function emitted(): Promise<[string, string][]> {
  const events = (await control(t.sandbox, 'GET', '/events')).body as { name: string; id: string }[];
  return events.filter((event) => event.name.startsWith('issuing.')).map((event) => [event.name, event.id]);
}

async function cardStatusAtBank(id: string): Promise<string> {
  return (await t.api.get(CARD_PATH, { query: { id } })).body.data[0].cardStatus;
}

async function cardholderStatusAtBank(id: string): Promise<string> {
  return (await t.api.get(CARDHOLDER_PATH, { query: { id } })).body.data[0].status;
}

describe('POST /sandbox/cards/{cardId}/status', () => {
  it('blocks an active card at the bank and emits issuing.card.blocked once', async () => {
    const response = await setCardStatus(VIRTUAL_CARD, { status: 'INACTIVE' });
    expect(response.status).toBe(200);
    const eventId = `${VIRTUAL_CARD}_issuing.card.blocked`;
    expect(response.body).toEqual({ id: VIRTUAL_CARD, previousStatus: 'ACTIVE', status: 'INACTIVE', changed: true, eventId });
    expect(await cardStatusAtBank(VIRTUAL_CARD)).toBe('INACTIVE');
    expect(await emitted()).toEqual([['issuing.card.blocked', eventId]]);
    expect(t.sandbox.events()[0]?.data).toMatchObject({ card_id: VIRTUAL_CARD, cardholder_id: 'chd_demo_ava', card_status: 'INACTIVE' });
  });

  it('unblocks it with issuing.card.active, dated on the sandbox clock', async () => {
    await setCardStatus(VIRTUAL_CARD, { status: 'INACTIVE' });
    await advanceMinutes(t.sandbox, 5);
    const before = t.sandbox.clock.now().getTime();
    const response = await setCardStatus(VIRTUAL_CARD, { status: 'ACTIVE' });
    expect(response.body).toMatchObject({ previousStatus: 'INACTIVE', status: 'ACTIVE', eventId: `${VIRTUAL_CARD}_issuing.card.active` });
    const card = (await t.api.get(CARD_PATH, { query: { id: VIRTUAL_CARD } })).body.data[0];
    expect(card.cardStatus).toBe('ACTIVE');
    expect(Date.parse(card.updatedAt.replace('+0000', 'Z'))).toBeGreaterThanOrEqual(before);
    expect((await emitted()).map(([name]) => name)).toEqual(['issuing.card.blocked', 'issuing.card.active']);
  });

  it('closes a card for good with issuing.card.blocked; a closed card takes no other status', async () => {
    expect((await setCardStatus(VIRTUAL_CARD, { status: 'CLOSED' })).body).toMatchObject({
      status: 'CLOSED',
      eventId: `${VIRTUAL_CARD}_issuing.card.blocked`,
    });
    expect(await cardStatusAtBank(VIRTUAL_CARD)).toBe('CLOSED');
    expect(t.sandbox.events()[0]?.data).toMatchObject({ card_status: 'CLOSED' });

    const reopen = await setCardStatus(VIRTUAL_CARD, { status: 'ACTIVE' });
    expect(reopen.status).toBe(400);
    expect(reopen.body).toEqual({ error: `Card ${VIRTUAL_CARD} is closed` });
    expect(await cardStatusAtBank(VIRTUAL_CARD)).toBe('CLOSED');
    expect(await emitted()).toHaveLength(1);
  });

  it('changes nothing and emits nothing for the status the card already has', async () => {
    const response = await setCardStatus(VIRTUAL_CARD, { status: 'ACTIVE' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: VIRTUAL_CARD, previousStatus: 'ACTIVE', status: 'ACTIVE', changed: false, eventId: null });
    await setCardStatus(VIRTUAL_CARD, { status: 'CLOSED' });
    expect((await setCardStatus(VIRTUAL_CARD, { status: 'CLOSED' })).body).toMatchObject({ changed: false, eventId: null });
    expect((await emitted()).map(([name]) => name)).toEqual(['issuing.card.blocked']);
  });

  it('does not activate a physical card that was never activated: that takes its e-mailed code', async () => {
    const response = await setCardStatus(DEMO_PHYSICAL_CARD, { status: 'ACTIVE' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: `Card ${DEMO_PHYSICAL_CARD} must be activated with Activate Card first` });
    expect(await cardStatusAtBank(DEMO_PHYSICAL_CARD)).toBe('INACTIVE');
    expect(await emitted()).toEqual([]);
  });

  it.each([
    [{ status: 'BLOCKED' }, 'status must be one of ACTIVE, INACTIVE, CLOSED'],
    [{ status: 'active' }, 'status must be one of ACTIVE, INACTIVE, CLOSED'],
    [{}, 'status is required'],
    [undefined, 'request body must be a JSON object'],
  ])('refuses %j, naming the field and the statuses allowed', async (body, error) => {
    const response = await setCardStatus(VIRTUAL_CARD, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(await cardStatusAtBank(VIRTUAL_CARD)).toBe('ACTIVE');
    expect(await emitted()).toEqual([]);
  });

  it('refuses a card that does not exist', async () => {
    const response = await setCardStatus('crd_nope', { status: 'INACTIVE' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Card crd_nope not found' });
    expect(await emitted()).toEqual([]);
  });
});

describe('POST /sandbox/cardholders/{cardholderId}/status', () => {
  it('passes a pending review: READY at the bank, issuing.cardholder.ready once, and no review left to run', async () => {
    const response = await setCardholderStatus('chd_demo_new', { status: 'READY' });
    expect(response.status).toBe(200);
    const eventId = 'chd_demo_new_issuing.cardholder.ready';
    expect(response.body).toEqual({ id: 'chd_demo_new', previousStatus: 'PENDING', status: 'READY', changed: true, eventId });
    expect(await cardholderStatusAtBank('chd_demo_new')).toBe('READY');
    expect(t.sandbox.events()[0]?.data).toMatchObject({ cardholder_id: 'chd_demo_new', status: 'READY', type: 'INDIVIDUAL' });
    await advanceMinutes(t.sandbox, 20);
    expect(await emitted()).toEqual([['issuing.cardholder.ready', eventId]]);
  });

  it('decides a review under way at once: the scheduled one does not run again', async () => {
    const created = await t.api.send('POST', CARDHOLDER_PATH, {
      body: { email: 'kai@acme.example', mobile_number: '+14155550123', type: 'DELEGATE', created_by: 'Jordan Miles' },
    });
    const id = created.body.data[0].id as string;
    expect((await setCardholderStatus(id, { status: 'READY' })).body).toMatchObject({ previousStatus: 'PENDING', status: 'READY' });
    await advanceMinutes(t.sandbox, 10);
    expect((await emitted()).map(([name]) => name)).toEqual(['issuing.cardholder.pending', 'issuing.cardholder.ready']);
  });

  it('puts a READY cardholder back under review with issuing.cardholder.pending, held until it is set READY again', async () => {
    const response = await setCardholderStatus('chd_demo_ava', { status: 'PENDING' });
    expect(response.body).toEqual({
      id: 'chd_demo_ava',
      previousStatus: 'READY',
      status: 'PENDING',
      changed: true,
      eventId: 'chd_demo_ava_issuing.cardholder.pending',
    });
    expect(await cardholderStatusAtBank('chd_demo_ava')).toBe('PENDING');
    await advanceMinutes(t.sandbox, 20);
    expect(await cardholderStatusAtBank('chd_demo_ava')).toBe('PENDING');
    await setCardholderStatus('chd_demo_ava', { status: 'READY' });
    expect(await emitted()).toEqual([
      ['issuing.cardholder.pending', 'chd_demo_ava_issuing.cardholder.pending'],
      ['issuing.cardholder.ready', 'chd_demo_ava_issuing.cardholder.ready'],
    ]);
  });

  it('changes nothing and emits nothing for the status the cardholder already has', async () => {
    const response = await setCardholderStatus('chd_demo_ops', { status: 'READY' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 'chd_demo_ops', previousStatus: 'READY', status: 'READY', changed: false, eventId: null });
    expect(await emitted()).toEqual([]);
  });

  it.each([
    [{ status: 'DELETED' }, 'status must be one of PENDING, READY'],
    [{ status: 'ACTIVE' }, 'status must be one of PENDING, READY'],
    [{}, 'status is required'],
  ])('refuses %j, naming the field and the statuses allowed', async (body, error) => {
    const response = await setCardholderStatus('chd_demo_ava', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(await cardholderStatusAtBank('chd_demo_ava')).toBe('READY');
    expect(await emitted()).toEqual([]);
  });

  it('refuses a cardholder that does not exist', async () => {
    const response = await setCardholderStatus('chd_nope', { status: 'READY' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Cardholder chd_nope not found' });
    expect(await emitted()).toEqual([]);
  });
});

describe('the status calls and onControlChange', () => {
  it('tell the listeners (an embedded gateway drops its cache) when they went through, and not when refused', async () => {
    let told = 0;
    const stop = t.sandbox.onControlChange(() => (told += 1));
    try {
      await setCardStatus(VIRTUAL_CARD, { status: 'INACTIVE' });
      expect(told).toBe(1);
      await setCardholderStatus('chd_demo_new', { status: 'READY' });
      expect(told).toBe(2);
      await setCardStatus('crd_nope', { status: 'INACTIVE' });
      await setCardholderStatus('chd_demo_ava', { status: 'GONE' });
      expect(told).toBe(2);
    } finally {
      stop();
    }
  });
});
