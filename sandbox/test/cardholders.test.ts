import { describe, expect, it } from 'vitest';
import {
  CARDHOLDER_PATH,
  CARD_PATH,
  HOME_ADDRESS,
  KYC_PATH,
  WALLET_PATH,
  advanceMinutes,
  call,
  cardDetail,
  doneEnvelope,
  envelopeError,
  individualCardholder,
  issuingHeaders,
  useSandbox,
} from './helpers.ts';

const t = useSandbox();

const create = (body: Record<string, unknown>) => t.api.send('POST', CARDHOLDER_PATH, { body });
const readOne = (id: string) => t.api.get(CARDHOLDER_PATH, { query: { id } });
const update = (id: string | undefined, body: Record<string, unknown>) =>
  t.api.send('PATCH', CARDHOLDER_PATH, { body, ...(id === undefined ? {} : { query: { id } }) });

async function created(body = individualCardholder()): Promise<string> {
  const response = await create(body);
  expect(response.status).toBe(200);
  return response.body.data[0].id;
}

const statusOf = async (id: string): Promise<string> => (await readOne(id)).body.data[0].status;

describe('POST /svc/api/v1/card/cardholder', () => {
  it('creates a PENDING INDIVIDUAL and answers data [{ id }]', async () => {
    const response = await create(individualCardholder());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 200,
      status: 'success',
      message: 'Cardholder created successfully',
      data: [{ id: expect.stringMatching(/^chd_[0-9a-f]{16}$/) }],
    });

    const read = await readOne(response.body.data[0].id);
    expect(read.body.data).toEqual([
      {
        id: response.body.data[0].id,
        email: 'noah.kim@acme.example',
        status: 'PENDING',
        type: 'INDIVIDUAL',
        mobile_number: '+15125550147',
        // Section 2.4 lists no country_code: the nationality given is kept, not shown here.
        postal_address: null,
        created_by: 'Jordan Miles',
        // The second it was created in: checked below, within a second of now (the clock ticks on).
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        individual: {
          date_of_birth: '1990-06-01',
          name: { title: null, first_name: 'Noah', middle_name: null, last_name: 'Kim' },
          address: { ...HOME_ADDRESS, line2: null },
          employers: [],
        },
      },
    ]);
    expect(read.body.data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(`${read.body.data[0].created_at}Z`) - t.sandbox.clock.now().getTime())).toBeLessThan(2_000);
  });

  it('becomes READY ten minutes later on the t.sandbox clock', async () => {
    const id = await created();
    await advanceMinutes(t.sandbox, 9);
    expect(await statusOf(id)).toBe('PENDING');
    await advanceMinutes(t.sandbox, 1);
    expect(await statusOf(id)).toBe('READY');
  });

  it('creates a DELEGATE with no individual, and accepts agent-code headers', async () => {
    const body = {
      email: 'fleet@acme.example',
      mobile_number: '4155550199',
      type: 'DELEGATE',
      created_by: 'Jordan Miles',
      postal_address: HOME_ADDRESS,
    };
    const response = await t.api.send('POST', CARDHOLDER_PATH, { body, headers: { 'agent-code': 'AG1', 'subagent-code': 'SUB7' } });
    expect(response.status).toBe(200);
    const read = (await readOne(response.body.data[0].id)).body.data[0];
    expect(read).toMatchObject({ type: 'DELEGATE', individual: null, postal_address: { ...HOME_ADDRESS, line2: null } });
    expect(read).not.toHaveProperty('country_code');
  });

  it.each([
    [{ email: 'no-at-sign' }, 'email must be an e-mail address containing @'],
    [{ mobile_number: '555-0147' }, 'mobile_number must be 7 to 15 digits, optionally after a +'],
    [{ type: 'ROBOT' }, 'type must be one of INDIVIDUAL, DELEGATE'],
    [{ created_by: undefined }, 'created_by is required'],
    [{ country_code: 'USA' }, 'country_code must be a 2-letter country code in capitals'],
    [{ individual: undefined }, 'individual is required for an INDIVIDUAL cardholder'],
    [{ type: 'DELEGATE' }, 'individual must not be given for a DELEGATE cardholder'],
    [
      { individual: { date_of_birth: '1990-06-01', name: { first_name: 'N0ah', last_name: 'Kim' }, address: HOME_ADDRESS } },
      'individual.name.first_name must contain only English letters, spaces, hyphens and apostrophes',
    ],
    [
      { individual: { date_of_birth: '1990-02-30', name: { first_name: 'Noah', last_name: 'Kim' }, address: HOME_ADDRESS } },
      'individual.date_of_birth must be a date in the form YYYY-MM-DD',
    ],
    [{ individual: { date_of_birth: '1990-06-01', name: { first_name: 'Noah', last_name: 'Kim' } } }, 'individual.address is required'],
    [{ postal_address: { ...HOME_ADDRESS, country: 'usa' } }, 'postal_address.country must be a 2-letter country code in capitals'],
  ])('refuses %j: %s', async (overrides, message) => {
    const response = await create(individualCardholder(overrides));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('accepts names with spaces, hyphens and apostrophes', async () => {
    const name = { title: 'Ms', first_name: 'Mary Ann', middle_name: "O'Neil", last_name: 'Smith-Jones' };
    const id = await created(individualCardholder({ individual: { date_of_birth: '1985-01-31', name, address: HOME_ADDRESS } }));
    expect((await readOne(id)).body.data[0].individual.name).toEqual(name);
  });
});

describe('GET /svc/api/v1/card/cardholder', () => {
  it('lists the demo cardholders, identification included, newest first', async () => {
    const newId = await created();
    const response = await t.api.get(CARDHOLDER_PATH);
    expect(response.body.message).toBe('Cardholders retrieved successfully');
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual([newId, 'chd_demo_new', 'chd_demo_ops', 'chd_demo_ava']);
    const ava = response.body.data[3];
    expect(ava).toMatchObject({ status: 'READY', type: 'INDIVIDUAL', email: 'ava.chen@acme.example' });
    expect(ava.individual.identification).toEqual({ country: 'US', expiry_date: '2031-05-31', number: 'P48213975', type: 'PASSPORT' });
    expect(response.body.data[2]).toMatchObject({ id: 'chd_demo_ops', type: 'DELEGATE', individual: null });
  });

  it('filters by status and pages with page_num and page_size', async () => {
    const pending = await t.api.get(CARDHOLDER_PATH, { query: { status: 'PENDING' } });
    expect(pending.body.data.map((c: { id: string }) => c.id)).toEqual(['chd_demo_new']);
    const second = await t.api.get(CARDHOLDER_PATH, { query: { page_num: 2, page_size: 2 } });
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual(['chd_demo_ava']);
  });

  it.each([
    [{ status: 'GONE' }, 'status must be one of PENDING, READY'],
    [{ page_size: 101 }, 'page_size must be at most 100'],
    [{ page_num: 0 }, 'page_num must be at least 1'],
  ])('refuses the query %j', async (query, message) => {
    expect((await t.api.get(CARDHOLDER_PATH, { query })).body).toEqual(envelopeError(400, message));
  });

  it('reads one cardholder by id as a one-element array, without identification', async () => {
    const response = await readOne('chd_demo_ava');
    expect(response.body.message).toBe('Cardholder retrieved successfully');
    expect(response.body.data).toHaveLength(1);
    expect(response.body.data[0].individual).not.toHaveProperty('identification');
    expect(response.body.data[0].individual.employers[0].business_name).toBe('Acme Trading Ltd');
  });

  it('answers an unknown id with Cardholder <id> not found', async () => {
    expect((await readOne('chd_nobody')).body).toEqual(envelopeError(400, 'Cardholder chd_nobody not found'));
  });
});

describe('PATCH /svc/api/v1/card/cardholder?id=', () => {
  it('without the id in the URL answers 404', async () => {
    const response = await update(undefined, { updated_by: 'Jordan Miles' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelopeError(404, 'Not found'));
  });

  it('changes only the given fields and answers without data', async () => {
    const response = await update('chd_demo_ops', { mobile_number: '+14155550999', updated_by: 'Jordan Miles' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(doneEnvelope('Cardholder updated successfully'));
    expect(response.body).not.toHaveProperty('data');
    const read = (await readOne('chd_demo_ops')).body.data[0];
    expect(read).toMatchObject({ mobile_number: '+14155550999', email: 'ops@acme.example', status: 'READY' });
    expect(read.postal_address).toMatchObject({ city: 'San Francisco' });
  });

  it('clears postal_address with null and replaces it whole otherwise', async () => {
    await update('chd_demo_ops', { postal_address: HOME_ADDRESS, updated_by: 'Jordan Miles' });
    expect((await readOne('chd_demo_ops')).body.data[0].postal_address).toEqual({ ...HOME_ADDRESS, line2: null });
    await update('chd_demo_ops', { postal_address: null, updated_by: 'Jordan Miles' });
    expect((await readOne('chd_demo_ops')).body.data[0].postal_address).toBeNull();
  });

  it.each([
    [
      { postal_address: { city: 'Austin', country: 'US', line1: '500 Congress Avenue', state: 'TX' } },
      'postal_address.postcode is required',
    ],
    [{ individual: { date_of_birth: '1988-03-14', name: { first_name: 'Ava', last_name: 'Chen' } } }, 'individual.address is required'],
    [
      { individual: { date_of_birth: '1988-03-14', name: { first_name: 'Ava' }, address: HOME_ADDRESS } },
      'individual.name.last_name is required',
    ],
    [{ individual: { name: { first_name: 'Ava', last_name: 'Chen' }, address: HOME_ADDRESS } }, 'individual.date_of_birth is required'],
  ])('requires a composite object whole: %j', async (patch, message) => {
    const response = await update('chd_demo_ava', { ...patch, updated_by: 'Jordan Miles' });
    expect(response.body).toEqual(envelopeError(400, message));
  });

  it('requires updated_by', async () => {
    expect((await update('chd_demo_ava', { mobile_number: '+14155550100' })).body).toEqual(envelopeError(400, 'updated_by is required'));
  });

  it('refuses an individual for a DELEGATE', async () => {
    const individual = { date_of_birth: '1990-01-01', name: { first_name: 'Ops', last_name: 'Team' }, address: HOME_ADDRESS };
    const response = await update('chd_demo_ops', { individual, updated_by: 'Jordan Miles' });
    expect(response.body).toEqual(envelopeError(400, 'individual must not be given for a DELEGATE cardholder'));
  });

  it('re-screens on a name change: PENDING, then READY ten minutes later', async () => {
    const individual = { date_of_birth: '1988-03-14', name: { first_name: 'Ava', last_name: 'Chen-Wright' }, address: HOME_ADDRESS };
    expect((await update('chd_demo_ava', { individual, updated_by: 'Jordan Miles' })).status).toBe(200);
    expect(await statusOf('chd_demo_ava')).toBe('PENDING');
    await advanceMinutes(t.sandbox, 10);
    const read = (await readOne('chd_demo_ava')).body.data[0];
    expect(read.status).toBe('READY');
    expect(read.individual.name.last_name).toBe('Chen-Wright');
    // The seeded identification survives the replacement (no request can set it).
    const listed = (await t.api.get(CARDHOLDER_PATH)).body.data.find((c: { id: string }) => c.id === 'chd_demo_ava');
    expect(listed.individual.identification.number).toBe('P48213975');
  });

  it('keeps the status when the name stays the same', async () => {
    const individual = { date_of_birth: '1988-03-14', name: { title: 'Ms', first_name: 'Ava', last_name: 'Chen' }, address: HOME_ADDRESS };
    await update('chd_demo_ava', { individual, updated_by: 'Jordan Miles' });
    expect(await statusOf('chd_demo_ava')).toBe('READY');
  });

  it('answers an unknown id with Cardholder <id> not found', async () => {
    expect((await update('chd_nobody', { updated_by: 'x' })).body).toEqual(envelopeError(400, 'Cardholder chd_nobody not found'));
  });
});

describe('DELETE /svc/api/v1/card/cardholder?id=', () => {
  it('needs the id', async () => {
    expect((await t.api.send('DELETE', CARDHOLDER_PATH)).body).toEqual(envelopeError(400, 'id is a required parameter and is missing'));
  });

  it('removes the cardholder, closes its cards and keeps its wallet readable', async () => {
    const response = await t.api.send('DELETE', CARDHOLDER_PATH, { query: { id: 'chd_demo_ava' } });
    expect(response.body).toEqual(doneEnvelope('Cardholder deleted successfully'));
    expect((await readOne('chd_demo_ava')).body).toEqual(envelopeError(400, 'Cardholder chd_demo_ava not found'));
    const card = await cardDetail(t.api, 'crd_demo_ava_v');
    expect(card).toMatchObject({ card_status: 'CLOSED', cardholder: null });
    const listed = await t.api.get(CARD_PATH, { query: { cardholder_id: 'chd_demo_ava' } });
    expect(listed.body.data[0].cardStatus).toBe('CLOSED');
    const wallet = await call(t.sandbox, WALLET_PATH, { headers: issuingHeaders('wallet', 'chd_demo_ava') });
    expect(wallet.body.data[0]).toMatchObject({ id: 'wal_demo_ava', amount: 500 });
    const kyc = await call(t.sandbox, KYC_PATH, { headers: issuingHeaders('kyc', 'chd_demo_ava') });
    expect(kyc.body).toEqual(envelopeError(400, 'Cardholder chd_demo_ava not found'));
  });

  it('stops a pending review', async () => {
    const id = await created();
    const reviewOf = () => [...t.sandbox.store.jobs.values()].filter((job) => job.subjectId === id);
    expect(reviewOf()).toMatchObject([{ kind: 'cardholder.review' }]);
    await t.api.send('DELETE', CARDHOLDER_PATH, { query: { id } });
    expect(reviewOf()).toEqual([]);
  });
});

describe('the retired path /svc/api/v1/cardHolders', () => {
  it.each(['GET', 'POST'])('answers 404 to %s', async (method) => {
    const response = await t.api.send(method, '/svc/api/v1/cardHolders', method === 'POST' ? { body: individualCardholder() } : {});
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelopeError(404, 'Not found'));
  });
});
