import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import {
  CardholderCreateDocument,
  CardholderDeleteDocument,
  CardholderDocument,
  CardholderKycDocument,
  CardholderKycRfiDocument,
  CardholderNodeDocument,
  CardholdersDocument,
  CardholderUpdateDocument,
  type CardholderCreateInput,
  type CardholderCreateMutation,
  type CardholderIndividualInput,
  type CardholderUpdateInput,
  type CardholderUpdateMutation,
} from '../generated/graphql.ts';
import { rawUpstream, useKit } from '../helpers/kit.ts';

// These tests count the bank calls of reads that repeat from test to test: the record cache (test/integration/cache.test.ts) stays off.
const kit = useKit({ cache: false });

const PATH = '/svc/api/v1/card/cardholder';
const KYC_PATH = '/issuing/api/v1/kyc';
const RFI_PATH = '/issuing/api/v1/kyc/rfi';
const RFI_RESPOND_PATH = '/issuing/api/v1/kyc/rfi/respond';
const AVA = 'chd_demo_ava';
const OPS = 'chd_demo_ops';
const NEW = 'chd_demo_new';

const NORA_ADDRESS = { line1: '1 Ferry Building', line2: 'Suite 50', city: 'San Francisco', state: 'CA', postcode: '94111', country: 'US' };
const NORA: CardholderCreateInput = {
  type: 'INDIVIDUAL',
  email: 'nora.lind@acme.example',
  mobileNumber: '+14155550199',
  countryCode: 'SE',
  createdBy: 'Jordan Miles',
  individual: {
    dateOfBirth: '1990-07-21',
    name: { title: 'Dr', firstName: 'Nora', middleName: 'Mae', lastName: "O'Neil-Lind" },
    address: NORA_ADDRESS,
    employers: [
      { businessName: 'Acme Trading Ltd', businessIdentifiers: [{ type: 'REGISTRATION_NUMBER', number: 'C4839201', countryCode: 'US' }] },
    ],
  },
  postalAddress: { line1: '500 Howard Street', city: 'San Francisco', state: 'CA', postcode: '94105', country: 'US' },
  agentCode: 'AG-7',
  subagentCode: 'SUB-2',
};
const FINANCE_DESK: CardholderCreateInput = {
  type: 'DELEGATE',
  email: 'finance@acme.example',
  mobileNumber: '4155550142',
  createdBy: 'Jordan Miles',
};

type Created = Extract<CardholderCreateMutation['cardholderCreate'], { __typename: 'CardholderCreateSuccess' }>['cardholder'];
type Updated = Extract<CardholderUpdateMutation['cardholderUpdate'], { __typename: 'CardholderUpdateSuccess' }>['cardholder'];

async function create(input: CardholderCreateInput): Promise<Created> {
  const result = await kit.execute(CardholderCreateDocument, { input });
  const outcome = result.data?.cardholderCreate;
  if (outcome?.__typename !== 'CardholderCreateSuccess') throw new Error(`create failed: ${JSON.stringify(result)}`);
  return outcome.cardholder;
}

async function update(input: CardholderUpdateInput): Promise<Updated> {
  const result = await kit.execute(CardholderUpdateDocument, { input });
  const outcome = result.data?.cardholderUpdate;
  if (outcome?.__typename !== 'CardholderUpdateSuccess') throw new Error(`update failed: ${JSON.stringify(result)}`);
  return outcome.cardholder;
}

async function read(id: string) {
  const result = await kit.execute(CardholderDocument, { id });
  expect(result.errors).toBeUndefined();
  return result.data!.cardholder;
}

async function rawList(query: string): Promise<any[]> {
  const raw = await rawUpstream(kit, 'GET', `${PATH}?${query}`);
  expect(raw.status).toBe(200);
  return raw.body.data;
}

/** Query strings the sandbox saw on `path` (the kit's `calls` leaves them out). */
function queries(path: string, method = 'GET'): Record<string, string>[] {
  return kit.sandbox
    .requests()
    .filter((r) => r.path === path && r.method === method)
    .map((r) => r.query);
}

/** The upstream's `yyyy-MM-ddTHH:mm:ss` (UTC, no offset) as the graph's DateTime. */
const utc = (local: string) => new Date(`${local}Z`).toISOString();

describe('cardholders: reads', () => {
  it('lists the cardholders as the bank lists them, newest first, mapped field by field', async () => {
    const raw = await rawList('page_num=1&page_size=100');
    expect(raw.map((c) => c.id)).toEqual([NEW, OPS, AVA]);
    await kit.resetCounts();

    const result = await kit.execute(CardholdersDocument, { first: 50 });
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.cardholders!.edges.map((e) => e.node);
    expect(nodes.map((n) => n.upstreamId)).toEqual(raw.map((c) => c.id));

    const ava = nodes.find((n) => n.upstreamId === AVA)!;
    const rawAva = raw.find((c) => c.id === AVA);
    expect(ava).toEqual({
      id: encodeGlobalID('Cardholder', AVA),
      upstreamId: AVA,
      status: 'READY',
      type: 'INDIVIDUAL',
      email: 'ava.chen@acme.example',
      mobileNumber: '+14155550123',
      // Document 2, 2.4 lists no nationality on a cardholder: the sandbox sends none.
      countryCode: null,
      createdBy: 'Jordan Miles',
      createdAt: utc(rawAva.created_at),
      individual: {
        dateOfBirth: '1988-03-14',
        name: { title: 'Ms', firstName: 'Ava', middleName: null, lastName: 'Chen' },
        address: { line1: '415 Grand Avenue', line2: null, city: 'Oakland', state: 'CA', postcode: '94610', country: 'US' },
        // The list is where the bank shows the identity document.
        identification: { type: 'PASSPORT', number: 'P48213975', country: 'US', expiryDate: '2031-05-31' },
        employers: [
          {
            businessName: 'Acme Trading Ltd',
            businessIdentifiers: [{ type: 'REGISTRATION_NUMBER', number: 'C4839201', countryCode: 'US' }],
          },
        ],
      },
      postalAddress: null,
    });
    const ops = nodes.find((n) => n.upstreamId === OPS)!;
    expect(ops).toMatchObject({ type: 'DELEGATE', status: 'READY', individual: null, countryCode: null });
    expect(ops.postalAddress).toEqual({
      line1: '100 Market Street',
      line2: 'Suite 400',
      city: 'San Francisco',
      state: 'CA',
      postcode: '94105',
      country: 'US',
    });
    // One list call for the whole connection, with the Document 2 paging parameters.
    expect(kit.calls(PATH, 'GET')).toHaveLength(1);
    expect(queries(PATH)[0]).toEqual({ page_num: '1', page_size: '51' });
  });

  it('filters by status upstream', async () => {
    await create(NORA);
    const rawPending = await rawList('status=PENDING');
    await kit.resetCounts();

    const pending = await kit.execute(CardholdersDocument, { status: 'PENDING' });
    const nodes = pending.data!.cardholders!.edges.map((e) => e.node);
    expect(nodes.map((n) => n.upstreamId)).toEqual(rawPending.map((c) => c.id));
    expect(nodes.map((n) => n.email)).toEqual(['nora.lind@acme.example', 'liam.patel@acme.example']);
    expect(new Set(nodes.map((n) => n.status))).toEqual(new Set(['PENDING']));

    const ready = await kit.execute(CardholdersDocument, { status: 'READY' });
    expect(ready.data!.cardholders!.edges.map((e) => e.node.upstreamId)).toEqual([OPS, AVA]);
    expect(queries(PATH).map((q) => q.status)).toEqual(['PENDING', 'READY']);
  });

  it('pages with page_num and page_size, matching the upstream list', async () => {
    await create(FINANCE_DESK);
    await create({ ...FINANCE_DESK, email: 'travel@acme.example' });
    const raw = await rawList('page_num=1&page_size=100');
    expect(raw).toHaveLength(5);
    await kit.resetCounts();

    const page1 = await kit.execute(CardholdersDocument, { first: 2 });
    const conn1 = page1.data!.cardholders!;
    expect(conn1.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(0, 2).map((c) => c.id));
    expect(conn1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });

    const page2 = await kit.execute(CardholdersDocument, { first: 2, after: conn1.pageInfo.endCursor });
    const conn2 = page2.data!.cardholders!;
    expect(conn2.edges.map((e) => e.node.upstreamId)).toEqual(raw.slice(2, 4).map((c) => c.id));
    expect(conn2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const page3 = await kit.execute(CardholdersDocument, { first: 2, after: conn2.pageInfo.endCursor });
    expect(page3.data!.cardholders!.edges.map((e) => e.node.upstreamId)).toEqual([raw[4].id]);
    expect(page3.data!.cardholders!.pageInfo.hasNextPage).toBe(false);

    // One call a page; each asks for the window and one more item to know if a next page exists.
    const seen = queries(PATH);
    expect(seen).toHaveLength(3);
    for (const query of seen) expect(Object.keys(query).sort()).toEqual(['page_num', 'page_size']);
    for (const call of kit.calls(PATH)) expect(call.status).toBe(200);
  });

  it('reads one cardholder by global ID, by bank id and through node, one upstream call each', async () => {
    const byBankId = await read(AVA);
    expect(byBankId).toMatchObject({ id: encodeGlobalID('Cardholder', AVA), email: 'ava.chen@acme.example', status: 'READY' });
    // A read by id carries no identification (the bank shows it on list responses only).
    expect(byBankId!.individual).toMatchObject({ name: { firstName: 'Ava', lastName: 'Chen' }, identification: null });
    const byGlobalId = await read(encodeGlobalID('Cardholder', OPS));
    expect(byGlobalId).toMatchObject({ upstreamId: OPS, type: 'DELEGATE' });
    const node = await kit.execute(CardholderNodeDocument, { id: encodeGlobalID('Cardholder', NEW) });
    expect(node.data!.node).toEqual({
      __typename: 'Cardholder',
      id: encodeGlobalID('Cardholder', NEW),
      upstreamId: NEW,
      status: 'PENDING',
    });
    expect(queries(PATH)).toEqual([{ id: AVA }, { id: OPS }, { id: NEW }]);
  });

  it('answers null for a cardholder that does not exist', async () => {
    const result = await kit.execute(CardholderDocument, { id: 'chd_missing' });
    expect(result.errors).toBeUndefined();
    expect(result.data!.cardholder).toBeNull();
    expect(kit.calls(PATH)).toEqual([expect.objectContaining({ status: 400 })]);
  });
});

describe('cardholders: writes', () => {
  it('creates an INDIVIDUAL cardholder: PENDING while screened, READY 10 minutes later', async () => {
    const created = await create(NORA);
    expect(created).toMatchObject({
      upstreamId: expect.stringMatching(/^chd_[0-9a-f]+$/),
      status: 'PENDING',
      type: 'INDIVIDUAL',
      email: 'nora.lind@acme.example',
      mobileNumber: '+14155550199',
      countryCode: null,
      createdBy: 'Jordan Miles',
      individual: {
        dateOfBirth: '1990-07-21',
        name: { title: 'Dr', firstName: 'Nora', middleName: 'Mae', lastName: "O'Neil-Lind" },
        address: NORA_ADDRESS,
        identification: null,
        employers: NORA.individual!.employers,
      },
      postalAddress: { ...NORA.postalAddress, line2: null },
    });
    expect(created.id).toBe(encodeGlobalID('Cardholder', created.upstreamId));
    // The create call (with the agent headers the sandbox accepts) and one read back.
    expect(kit.calls(PATH, 'POST')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(queries(PATH)).toEqual([{ id: created.upstreamId }]);

    await kit.control('POST', 'clock/advance', { minutes: 9 });
    expect((await read(created.id))!.status).toBe('PENDING');
    await kit.control('POST', 'clock/advance', { minutes: 1 });
    expect((await read(created.id))!.status).toBe('READY');
  });

  it('creates a DELEGATE cardholder without individual data', async () => {
    const created = await create(FINANCE_DESK);
    expect(created).toMatchObject({
      status: 'PENDING',
      type: 'DELEGATE',
      email: 'finance@acme.example',
      mobileNumber: '4155550142',
      countryCode: null,
      individual: null,
      postalAddress: null,
    });
  });

  it('creates one cardholder when a creation is retried with the same idempotency key', async () => {
    const key = `cardholder-${crypto.randomUUID()}`;
    const first = await kit.execute(CardholderCreateDocument, { input: FINANCE_DESK, idempotencyKey: key });
    const second = await kit.execute(CardholderCreateDocument, { input: FINANCE_DESK, idempotencyKey: key });
    const idOf = (result: typeof first) => (result.data!.cardholderCreate as { cardholder: { upstreamId: string } }).cardholder.upstreamId;
    expect(idOf(second)).toBe(idOf(first));
    expect(new Set(kit.calls(PATH, 'POST').map((c) => c.requestId))).toEqual(new Set([key]));
    const delegates = (await rawList('page_num=1&page_size=100')).filter((c) => c.email === FINANCE_DESK.email);
    expect(delegates).toHaveLength(1);
  });

  it('checks the input before anything is sent: individual data by type, mobile number, names, birth date', async () => {
    const cases: [CardholderCreateInput, string[], string][] = [
      [{ ...NORA, individual: null }, ['input', 'individual'], 'is required for an INDIVIDUAL cardholder'],
      [{ ...FINANCE_DESK, individual: NORA.individual }, ['input', 'individual'], 'must not be given for a DELEGATE cardholder'],
      [{ ...FINANCE_DESK, mobileNumber: '555-0142' }, ['input', 'mobileNumber'], 'must be 7 to 15 digits, optionally after a +'],
      [{ ...FINANCE_DESK, email: 'finance.acme.example' }, ['input', 'email'], 'must be an e-mail address'],
      [
        { ...NORA, individual: { ...NORA.individual!, name: { firstName: 'Nóra', lastName: 'Lind' } } },
        ['input', 'individual', 'name', 'firstName'],
        'must use English letters only, with spaces, hyphens and apostrophes between them',
      ],
      [
        { ...NORA, individual: { ...NORA.individual!, dateOfBirth: '2999-01-01' } },
        ['input', 'individual', 'dateOfBirth'],
        'must be a day in the past',
      ],
    ];
    for (const [input, path, message] of cases) {
      const result = await kit.execute(CardholderCreateDocument, { input });
      expect(result.data!.cardholderCreate).toMatchObject({ __typename: 'ValidationError', issues: [{ path, message }] });
    }
    expect(kit.calls(PATH, 'POST')).toHaveLength(0);
  });

  it('updates only the given fields', async () => {
    const updated = await update({
      cardholderId: encodeGlobalID('Cardholder', AVA),
      mobileNumber: '+14155550777',
      updatedBy: 'Jordan Miles',
    });
    expect(updated).toMatchObject({
      upstreamId: AVA,
      status: 'READY',
      mobileNumber: '+14155550777',
      email: 'ava.chen@acme.example',
      countryCode: null,
      individual: {
        dateOfBirth: '1988-03-14',
        name: { title: 'Ms', firstName: 'Ava', lastName: 'Chen' },
        address: { line1: '415 Grand Avenue' },
      },
      postalAddress: null,
    });
    expect(kit.calls(PATH, 'PATCH')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(queries(PATH, 'PATCH')).toEqual([{ id: AVA }]);

    const moved = await update({ cardholderId: encodeGlobalID('Cardholder', AVA), postalAddress: NORA_ADDRESS, updatedBy: 'Jordan Miles' });
    expect(moved).toMatchObject({ mobileNumber: '+14155550777', postalAddress: NORA_ADDRESS, status: 'READY' });
  });

  it('replaces the individual as a whole; a new name goes back to screening', async () => {
    const individual: CardholderIndividualInput = {
      dateOfBirth: '1988-03-14',
      name: { title: 'Dr', firstName: 'Ava', lastName: 'Chen-Park' },
      address: { line1: '9 Lake Merritt Blvd', city: 'Oakland', state: 'CA', postcode: '94612', country: 'US' },
    };
    const renamed = await update({ cardholderId: encodeGlobalID('Cardholder', AVA), individual, updatedBy: 'Jordan Miles' });
    expect(renamed).toMatchObject({
      status: 'PENDING',
      individual: {
        name: { title: 'Dr', firstName: 'Ava', middleName: null, lastName: 'Chen-Park' },
        address: { line1: '9 Lake Merritt Blvd', line2: null },
      },
    });
    // Employers were not given: the whole individual was replaced.
    expect(renamed.individual!.employers).toEqual([]);
    await kit.control('POST', 'clock/advance', { minutes: 10 });
    expect((await read(AVA))!.status).toBe('READY');
  });

  it('requires every member of a composite object it is given, before anything is sent', async () => {
    const noAddress = { dateOfBirth: '1988-03-14', name: { firstName: 'Ava', lastName: 'Chen' } } as unknown as CardholderIndividualInput;
    const partialIndividual = await kit.execute(CardholderUpdateDocument, {
      input: { cardholderId: encodeGlobalID('Cardholder', AVA), individual: noAddress, updatedBy: 'Jordan Miles' },
    });
    expect(partialIndividual.data).toBeUndefined();
    expect(partialIndividual.errors![0]!.message).toMatch(/Field "address" of required type "AddressInput!" was not provided/);

    const noCity = {
      line1: '1 Main Street',
      state: 'CA',
      postcode: '94105',
      country: 'US',
    } as unknown as CardholderUpdateInput['postalAddress'];
    const partialAddress = await kit.execute(CardholderUpdateDocument, {
      input: { cardholderId: encodeGlobalID('Cardholder', AVA), postalAddress: noCity, updatedBy: 'Jordan Miles' },
    });
    expect(partialAddress.errors![0]!.message).toMatch(/Field "city" of required type "String!" was not provided/);
    expect(kit.calls(PATH, 'PATCH')).toHaveLength(0);
  });

  it('passes on the bank refusing individual data for a DELEGATE', async () => {
    const result = await kit.execute(CardholderUpdateDocument, {
      input: { cardholderId: encodeGlobalID('Cardholder', OPS), individual: NORA.individual, updatedBy: 'Jordan Miles' },
    });
    expect(result.data!.cardholderUpdate).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamStatus: 400,
      upstreamMessage: 'individual must not be given for a DELEGATE cardholder',
    });
  });

  it('deletes a cardholder for good', async () => {
    const created = await create(FINANCE_DESK);
    const deleted = await kit.execute(CardholderDeleteDocument, { input: { cardholderId: created.id } });
    expect(deleted.data!.cardholderDelete).toEqual({
      __typename: 'CardholderDeleteSuccess',
      result: { deletedId: created.id, deletedCardholderId: created.upstreamId },
    });
    expect(queries(PATH, 'DELETE')).toEqual([{ id: created.upstreamId }]);
    expect(await read(created.id)).toBeNull();
    const list = await kit.execute(CardholdersDocument, { first: 50 });
    expect(list.data!.cardholders!.edges.map((e) => e.node.upstreamId)).not.toContain(created.upstreamId);

    const again = await kit.execute(CardholderDeleteDocument, { input: { cardholderId: created.id } });
    expect(again.data!.cardholderDelete).toMatchObject({
      __typename: 'UpstreamRejection',
      upstreamMessage: `Cardholder ${created.upstreamId} not found`,
    });
  });
});

describe('cardholders: KYC', () => {
  it('reports KYC status, PENDING with a submission link, then COMPLETED', async () => {
    const before = await kit.execute(CardholderKycDocument, { id: NEW });
    expect(before.errors).toBeUndefined();
    expect(before.data!.cardholder!.kyc).toEqual({
      status: 'PENDING',
      link: `https://kyc.sandbox.example/submit/${NEW}`,
      documentType: 'E_KYC',
      complianceStatus: 'IN_PROGRESS',
      email: 'liam.patel@acme.example',
    });

    await kit.control('POST', `kyc/${NEW}/complete`);
    const after = await kit.execute(CardholderKycDocument, { id: NEW });
    expect(after.data!.cardholder!.kyc).toEqual({
      status: 'COMPLETED',
      link: null,
      documentType: 'E_KYC',
      complianceStatus: 'COMPLETED',
      email: 'liam.patel@acme.example',
    });
    const seeded = await kit.execute(CardholderKycDocument, { id: AVA });
    expect(seeded.data!.cardholder!.kyc).toMatchObject({ status: 'COMPLETED', link: null, email: 'ava.chen@acme.example' });
  });

  it('reads KYC, RFI details and the response link only when asked for, with the KYC header set', async () => {
    await read(AVA);
    expect(kit.calls(KYC_PATH)).toHaveLength(0);
    await kit.execute(CardholderKycDocument, { id: AVA });
    expect(kit.calls(KYC_PATH)).toHaveLength(1);
    expect(kit.calls(RFI_PATH)).toHaveLength(0);
    expect(kit.calls(RFI_RESPOND_PATH)).toHaveLength(0);

    await kit.execute(CardholderKycRfiDocument, { id: AVA });
    // The sandbox refuses KYC calls without x-cardholderHash-id and x-client-id: these went through.
    for (const path of [KYC_PATH, RFI_PATH, RFI_RESPOND_PATH]) {
      expect(kit.calls(path).map((c) => c.status)).toEqual(path === KYC_PATH ? [200, 200] : [200]);
    }
    const bare = await rawUpstream(kit, 'GET', KYC_PATH);
    expect(bare.body).toMatchObject({ code: 400, message: 'x-cardholderHash-id is a required header and is missing' });
    const noClient = await rawUpstream(kit, 'GET', KYC_PATH, { headers: { 'x-cardholderHash-id': AVA } });
    expect(noClient.body).toMatchObject({ code: 400, message: 'x-client-id is a required header and is missing' });
  });

  it('shows the request for information after a decline, and the link to answer it', async () => {
    const none = await kit.execute(CardholderKycRfiDocument, { id: NEW });
    expect(none.data!.cardholder!.kyc!.rfi).toEqual({ declinedReason: null, declinedAddressCodes: [], declinedDocumentCodes: [] });

    await kit.control('POST', `kyc/${NEW}/reject`, {
      reason: 'Proof of address is older than three months',
      address_codes: ['ADDRESS_OUTDATED'],
      document_codes: ['DOCUMENT_BLURRED', 'DOCUMENT_CROPPED'],
    });
    const result = await kit.execute(CardholderKycRfiDocument, { id: encodeGlobalID('Cardholder', NEW) });
    expect(result.errors).toBeUndefined();
    expect(result.data!.cardholder!.kyc).toEqual({
      status: 'PENDING',
      rfi: {
        declinedReason: 'Proof of address is older than three months',
        declinedAddressCodes: ['ADDRESS_OUTDATED'],
        declinedDocumentCodes: ['DOCUMENT_BLURRED', 'DOCUMENT_CROPPED'],
      },
      rfiResponseLink: `https://kyc.sandbox.example/rfi/${NEW}`,
    });
  });

  it('is a PROGRAM_NOT_SUPPORTED error on the Banking program, and the rest of the cardholder still resolves', async () => {
    await kit.control('PUT', 'program', { program: 'BANKING' });
    const result = await kit.execute(CardholderKycDocument, { id: AVA });
    expect(result.data!.cardholder).toEqual({ id: encodeGlobalID('Cardholder', AVA), status: 'READY', kyc: null });
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: 'Get Cardholder KYC is not supported for the BANKING program',
        path: ['cardholder', 'kyc'],
        extensions: expect.objectContaining({ code: 'PROGRAM_NOT_SUPPORTED', program: 'BANKING', upstreamStatus: 400 }),
      }),
    ]);
  });
});
