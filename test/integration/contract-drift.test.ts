import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.ts';
import { rawUpstream, useKit, type Kit } from '../helpers/kit.ts';

// Issue 39: the bank's answers are read field by field as the operation asks for them, and checked
// whole on a sample for drift. A drifted field nobody asked for leaves the screen whole while the
// drift metric counts it; a drifted field that is asked for fails alone; with
// UPSTREAM_CONTRACT_CHECK=all (the test kit's default) a drift anywhere fails the call, as before.

const CARD = 'crd_demo_ava_v';
const DETAIL = '/svc/api/v1/card/detail';
const DETAIL_ENDPOINT = `GET ${DETAIL}`;
const SCREEN = `{ card(id: "${CARD}") { maskedNumber availableBalance { amount } spendingControls { interval } } }`;
const WITH_BRAND = `{ card(id: "${CARD}") { maskedNumber brand availableBalance { amount } } }`;

/** The card's real detail from the sandbox, with its brand (a field the screen does not show) broken. */
async function detailWithBrokenBrand(kit: Kit): Promise<unknown> {
  const answer = await rawUpstream(kit, 'GET', `${DETAIL}?id=${CARD}`);
  expect(answer.status).toBe(200);
  const body = answer.body as { data: Record<string, unknown>[] };
  expect(typeof body.data[0]!.brand).toBe('string');
  body.data[0]!.brand = 42;
  return body;
}

async function breakNextDetail(kit: Kit): Promise<void> {
  const body = await detailWithBrokenBrand(kit);
  // The test's own read of the detail is no call of the gateway's.
  await kit.resetCounts();
  await kit.control('POST', 'faults', { kind: 'contract', method: 'GET', path: DETAIL, body });
}

async function violations(kit: Kit): Promise<number> {
  const text = await kit.gateway.metrics.registry.getSingleMetricAsString('gateway_upstream_contract_violations_total');
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('gateway_upstream_contract_violations_total{') &&
        l.includes(`endpoint="${DETAIL_ENDPOINT}"`) &&
        l.includes('path="data[].brand"'),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('sampling (UPSTREAM_CONTRACT_CHECK=sample)', () => {
  const lines: string[] = [];
  // Every answer sampled, so the count does not depend on which answer came first: a sampled check fails nothing.
  const kit = useKit({
    cache: false,
    contractCheck: { mode: 'sample', samplePercent: 100 },
    logger: createLogger('info', { write: (line) => lines.push(line) }),
  });

  it('leaves a screen whole when a field it does not show drifted, and counts the drift', async () => {
    const before = await violations(kit);
    await breakNextDetail(kit);
    const result = await kit.execute(parse(SCREEN));
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({
      card: { maskedNumber: expect.stringMatching(/^\d{6}\*+\d{4}$/), availableBalance: { amount: expect.any(String) } },
    });
    expect(kit.calls(DETAIL)).toHaveLength(1);
    expect(await violations(kit)).toBe(before + 1);
    const warned = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.path === 'data[].brand');
    expect(warned).toEqual([expect.objectContaining({ level: 40, endpoint: DETAIL_ENDPOINT, requestId: kit.calls(DETAIL)[0]!.requestId })]);
  });

  it('fails a drifted field the operation asks for, alone, with its coded error naming the field; the rest renders', async () => {
    await breakNextDetail(kit);
    const result = await kit.execute(parse(WITH_BRAND));
    expect(result.data).toMatchObject({
      card: { maskedNumber: expect.stringMatching(/^\d{6}\*+\d{4}$/), brand: null, availableBalance: { amount: expect.any(String) } },
    });
    expect(result.errors).toHaveLength(1);
    expect(result.errors![0]).toMatchObject({
      path: ['card', 'brand'],
      message: expect.stringMatching(/^The bank's answer breaks its documented contract at data\[0\]\.brand: /),
      extensions: { code: 'UPSTREAM_CONTRACT_ERROR', upstreamRequestId: kit.calls(DETAIL)[0]!.requestId },
    });
    // The log names the endpoint too, as it always did.
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.level === 50 && line.endpoint === DETAIL_ENDPOINT);
    expect(logged).toHaveLength(1);
  });
});

describe('every answer checked whole (UPSTREAM_CONTRACT_CHECK=all, the test kit default)', () => {
  const kit = useKit({ cache: false });

  it('fails every field read from an answer that drifted anywhere, as the whole parse did, and counts it', async () => {
    const before = await violations(kit);
    await breakNextDetail(kit);
    const result = await kit.execute(parse(SCREEN));
    // The list's fields come from another call and still render; the detail's fail.
    expect(result.data).toMatchObject({ card: { maskedNumber: expect.stringMatching(/^\d{6}\*+\d{4}$/), availableBalance: null } });
    expect(result.errors!.map((error) => [error.path, error.extensions.code])).toEqual(
      expect.arrayContaining([[['card', 'availableBalance'], 'UPSTREAM_CONTRACT_ERROR']]),
    );
    expect(result.errors![0]!.message).toMatch(/at data\[0\]\.brand: /);
    expect(await violations(kit)).toBe(before + 1);
  });
});
