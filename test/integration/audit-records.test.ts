import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessDeniedRecord } from '../../src/audit/record.ts';
import { DEFAULT_AUTH, type CallerAuthConfig } from '../../src/settings/index.ts';
import { runWs } from '../helpers/auth-clients.ts';
import { rawUpstream, startKit, useKit, type Kit } from '../helpers/kit.ts';
import { registerSecret } from '../helpers/leak-scan.ts';
import { postGraphql } from '../helpers/http.ts';
import { until } from '../helpers/wait.ts';

/**
 * What the audit trail holds, and only that: one record for each mutation field whose resolver ran,
 * written when it ended (with the bank's outcome when a write reached the bank, whether or not the
 * client was still there); nothing for a field that never ran; the gateway's own request id; and
 * the refusals made before execution as access-denied records, aggregated per caller or address,
 * reason and minute.
 */

const BENEFICIARY = 'ben_demo_us';
const WRITE_PATH = `/svc/api/v1/transfer/beneficiary/${BENEFICIARY}`;
const READ_PATH = `/svc/api/v1/transfer/beneficiarylist/${BENEFICIARY}`;
const UPDATE = 'mutation Rename($input: BeneficiaryUpdateInput!) { beneficiaryUpdate(input: $input) { __typename } }';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const mutations = (kit: Kit) => kit.audit();
const denials = (kit: Kit) => kit.denied();

/** The gateway's calls on their way to the bank now. */
const inFlight = (kit: Kit) => Object.values(kit.gateway.upstream.concurrencyLimits())[0]?.inFlight ?? 0;

describe('mutation records', () => {
  const kit = useKit({ cache: false, listen: true });

  it('records a write whose client left before the bank answered, once, with the bank\u2019s outcome', async () => {
    const nickname = `gone-${Date.now()}`;
    // The bank takes 1.5 s over the write; the client leaves after 0.3 s.
    await kit.control('POST', 'faults', { kind: 'stall', stallMs: 1_500, method: 'PATCH', path: WRITE_PATH });
    const client = new AbortController();
    const answer = postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: UPDATE, variables: { input: { beneficiaryId: BENEFICIARY, nickname } } },
      {},
      { signal: client.signal },
    ).catch((error: Error) => error);
    // The beneficiary read, then the write on the wire: the client leaves while the bank holds it.
    await until('the write on the wire', () => kit.calls(READ_PATH).length === 1 && inFlight(kit) === 1);
    await sleep(300);
    client.abort();
    expect(await answer).toMatchObject({ name: 'AbortError' });

    await until(
      'the bank to answer and the record to be written',
      () => kit.calls(WRITE_PATH, 'PATCH').some((call) => call.status === 200) && mutations(kit).length > 0,
    );
    await sleep(300);
    expect(kit.calls(WRITE_PATH, 'PATCH').map((call) => call.status)).toEqual([200]);
    expect(mutations(kit)).toEqual([
      expect.objectContaining({
        field: 'beneficiaryUpdate',
        operation: 'Rename',
        targets: { beneficiaryId: BENEFICIARY },
        outcome: 'success',
        clientGone: true,
      }),
    ]);
    // The bank applied it.
    const bank = await rawUpstream(kit, 'GET', READ_PATH);
    expect(JSON.stringify(bank.body)).toContain(nickname);
  });

  it('records a write never sent because its client left first as not_sent, once, and sends nothing', async () => {
    await kit.control('PUT', 'latency', { ms: 1_500 });
    try {
      const client = new AbortController();
      const answer = postGraphql(
        `${kit.baseUrl}/graphql`,
        { query: UPDATE, variables: { input: { beneficiaryId: BENEFICIARY, nickname: 'never' } } },
        {},
        { signal: client.signal },
      ).catch((error: Error) => error);
      // The client leaves while the beneficiary is still being read, before the write could go.
      await until('the read on the wire', () => inFlight(kit) === 1);
      await sleep(300);
      client.abort();
      expect(await answer).toMatchObject({ name: 'AbortError' });
      await until('the record', () => mutations(kit).length > 0);
      await sleep(1_700);
    } finally {
      await kit.control('PUT', 'latency', { ms: 0 });
    }
    expect(kit.calls(WRITE_PATH, 'PATCH')).toEqual([]);
    expect(mutations(kit)).toEqual([
      expect.objectContaining({ field: 'beneficiaryUpdate', outcome: 'not_sent', clientGone: true, result: null }),
    ]);
  });

  it('writes a record for a client that stayed with clientGone false', async () => {
    const response = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: UPDATE,
      variables: { input: { beneficiaryId: BENEFICIARY, nickname: 'stayed' } },
    });
    expect(response.body).toEqual({ data: { beneficiaryUpdate: { __typename: 'BeneficiaryUpdateSuccess' } } });
    expect(mutations(kit)).toEqual([
      expect.objectContaining({
        field: 'beneficiaryUpdate',
        outcome: 'success',
        clientGone: false,
        clientRequestId: null,
        permissions: expect.arrayContaining(['beneficiaries:write']),
      }),
    ]);
    const { permissions } = mutations(kit)[0]!;
    expect(permissions).toEqual([...permissions].sort());
  });

  it('writes nothing for a field that did not execute (@include(if: false), @skip(if: true))', async () => {
    const response = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: `mutation Padding {
        a: beneficiaryUpdate(input: {beneficiaryId: "${BENEFICIARY}", nickname: "a"}) @include(if: false) { __typename }
        b: beneficiaryDelete(input: {beneficiaryId: "${BENEFICIARY}"}) @skip(if: true) { __typename }
      }`,
    });
    expect(response.body).toEqual({ data: {} });
    expect(kit.audit()).toEqual([]);
    expect(kit.denied()).toEqual([]);
    expect(kit.calls()).toEqual([]);
  });

  it('names each record by the gateway\u2019s own request id, and keeps the caller\u2019s beside it', async () => {
    const headers = { 'x-request-id': 'someone-elses-id' };
    const first = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: UPDATE, variables: { input: { beneficiaryId: BENEFICIARY, nickname: 'one' } } },
      headers,
    );
    const second = await postGraphql(
      `${kit.baseUrl}/graphql`,
      { query: UPDATE, variables: { input: { beneficiaryId: BENEFICIARY, nickname: 'two' } } },
      headers,
    );
    const [one, two] = mutations(kit);
    expect(one!.requestId).toMatch(UUID);
    expect(two!.requestId).toMatch(UUID);
    expect(one!.requestId).not.toBe(two!.requestId);
    expect([one!.clientRequestId, two!.clientRequestId]).toEqual(['someone-elses-id', 'someone-elses-id']);
    // The answer names the gateway's id: the one an operator finds the record by.
    expect([first.headers.get('x-request-id'), second.headers.get('x-request-id')]).toEqual([one!.requestId, two!.requestId]);
  });
});

/** docs/operations.md's access-denied record. */
function documentedDenial(): AccessDeniedRecord {
  const doc = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const block = /<!-- not run: compared with a real record by test\/integration\/audit-records\.test\.ts -->\n```json\n(.+)\n```/.exec(doc);
  if (!block) throw new Error("docs/operations.md's access-denied record is gone");
  return JSON.parse(block[1]!) as AccessDeniedRecord;
}

const API_KEY = 'audit-records-key-4f1c9a';
registerSecret('the audit test API key', API_KEY);
const SERVICE: CallerAuthConfig = {
  ...DEFAULT_AUTH,
  mode: 'service',
  apiKeys: [{ name: 'back-office', sha256: createHash('sha256').update(API_KEY).digest('hex'), roles: ['admin'], cardholderId: null }],
  jwt: undefined,
  allowedOrigins: [],
};

describe('access-denied records', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ cache: false, listen: true, auth: SERVICE, clientRateLimit: { operations: 2, windowSeconds: 60 } });
  });
  afterAll(() => kit?.close());

  const BALANCES = '{ balances { currency } }';
  const deniedOf = (reason: string) => denials(kit).filter((record) => record.reason === reason);

  it('records a bad credential (401) with the address it came from, as docs/operations.md shows it', async () => {
    await kit.resetCounts();
    const response = await postGraphql(`${kit.baseUrl}/graphql`, { query: BALANCES }, { 'x-api-key': 'not-a-key' });
    expect(response.status).toBe(401);
    const [record, ...more] = deniedOf('UNAUTHENTICATED');
    expect(more).toEqual([]);
    const time = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(record).toEqual({
      ...documentedDenial(),
      time,
      firstAt: time,
      lastAt: time,
      address: expect.stringMatching(/127\.0\.0\.1/),
      requestId: response.headers.get('x-request-id'),
    });
    expect(record!.requestId).toMatch(UUID);
    expect(kit.calls()).toEqual([]);
  });

  it('records a CSRF refusal and a mutation over GET', async () => {
    await kit.resetCounts();
    const csrf = await fetch(`${kit.baseUrl}/graphql?query=${encodeURIComponent(BALANCES)}`, { headers: { 'x-api-key': API_KEY } });
    expect(csrf.status).toBe(403);
    const get = await fetch(
      `${kit.baseUrl}/graphql?query=${encodeURIComponent('mutation { beneficiaryDelete(input: {beneficiaryId: "ben_demo_us"}) { __typename } }')}`,
      {
        headers: { 'x-api-key': API_KEY, 'x-graphql-csrf': '1' },
      },
    );
    expect(get.status).toBe(405);
    expect(denials(kit).map((record) => [record.reason, record.caller, record.count])).toEqual([
      ['CSRF_HEADER_REQUIRED', null, 1],
      ['MUTATION_OVER_GET', { kind: 'api-key', name: 'back-office' }, 1],
    ]);
    expect(mutations(kit)).toEqual([]);
  });

  it('records an operation over the client\u2019s operations per window, naming the caller, and no mutation attempt', async () => {
    await kit.resetCounts();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await postGraphql(
            `${kit.baseUrl}/graphql`,
            { query: `mutation { beneficiaryDelete(input: {beneficiaryId: "ben_nope_${i}"}) { __typename } }` },
            { 'x-api-key': API_KEY },
          )
        ).status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect(deniedOf('RATE_LIMITED')).toEqual([
      expect.objectContaining({ caller: { kind: 'api-key', name: 'back-office' }, transport: 'http', count: 1 }),
    ]);
    // The refused operation's field never ran: no mutation record for it.
    expect(mutations(kit)).toHaveLength(statuses.filter((status) => status !== 429).length);
  });
});

describe('access-denied records of sockets', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit({ cache: false, listen: true, auth: SERVICE, clientRateLimit: { operations: 1, windowSeconds: 60 } });
  });
  afterAll(() => kit?.close());

  it('records a socket refused at connection_init, and an operation over the window on a socket, naming its caller', async () => {
    await kit.resetCounts();
    expect(await runWs(kit.baseUrl!, '{ balances { currency } }', { 'x-api-key': 'not-a-key' })).toMatchObject({ closed: { code: 4403 } });
    expect(await runWs(kit.baseUrl!, '{ balances { currency } }', { 'x-api-key': API_KEY })).toMatchObject({
      result: { data: expect.anything() },
    });
    const limited = await runWs(kit.baseUrl!, '{ balances { currency } }', { 'x-api-key': API_KEY });
    expect(JSON.stringify(limited)).toContain('RATE_LIMITED');
    expect(denials(kit).map((record) => [record.reason, record.transport, record.caller, record.count])).toEqual([
      ['UNAUTHENTICATED', 'graphql-ws', null, 1],
      ['RATE_LIMITED', 'graphql-ws', { kind: 'api-key', name: 'back-office' }, 1],
    ]);
    expect(denials(kit)[0]!.address).toMatch(/127\.0\.0\.1/);
  });
});

describe('access-denied records in passthrough', () => {
  const kit = useKit({
    cache: false,
    listen: true,
    auth: { ...DEFAULT_AUTH, mode: 'passthrough', apiKeys: [], jwt: undefined, allowedOrigins: [] },
  });

  it('records an operation of a caller not logged in, and no mutation attempt', async () => {
    const response = await postGraphql(`${kit.baseUrl}/graphql`, {
      query: `mutation { beneficiaryDelete(input: {beneficiaryId: "${BENEFICIARY}"}) { __typename } }`,
    });
    expect(response.status).toBe(401);
    expect(kit.denied()).toEqual([
      expect.objectContaining({ reason: 'UNAUTHENTICATED', transport: 'http', caller: { kind: 'anonymous', name: 'anonymous' }, count: 1 }),
    ]);
    expect(kit.audit()).toEqual([]);
    expect(kit.calls()).toEqual([]);
  });
});

describe('a flood of bad credentials', () => {
  it('is written as at most two records per address and reason, whose counts add up to all of them', async () => {
    const kit = await startKit({ cache: false, listen: true, auth: SERVICE });
    try {
      const statuses = await Promise.all(
        Array.from(
          { length: 50 },
          async () =>
            (await postGraphql(`${kit.baseUrl}/graphql`, { query: '{ balances { currency } }' }, { 'x-api-key': 'wrong' })).status,
        ),
      );
      expect(new Set(statuses)).toEqual(new Set([401]));
      // At once: the first of them.
      expect(denials(kit)).toEqual([expect.objectContaining({ reason: 'UNAUTHENTICATED', count: 1 })]);
    } finally {
      await kit.close();
    }
    // At the close, the rest, counted.
    const records = denials(kit).filter((record) => record.reason === 'UNAUTHENTICATED');
    expect(records.length).toBeLessThanOrEqual(2);
    expect(new Set(records.map((record) => record.address)).size).toBe(1);
    expect(records.reduce((sum, record) => sum + record.count, 0)).toBe(50);
  });
});
