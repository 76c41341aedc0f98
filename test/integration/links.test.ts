import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse, type GraphQLFormattedError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useKit } from '../helpers/kit.ts';

/**
 * Every id the bank sends of another record is a field of its own (`<link>UpstreamId`), and a link
 * whose record the bank does not find is an error on that link (NOT_FOUND), never a silent null.
 */

const kit = useKit();

async function run(query: string): Promise<{ data: Record<string, unknown> | null | undefined; errors: readonly GraphQLFormattedError[] }> {
  const result = await kit.execute(parse(query));
  return {
    data: result.data as Record<string, unknown> | null | undefined,
    errors: result.errors ?? [],
  };
}

/** The next read of `path` answers 404, as a bank does for a record it does not have. */
const notFoundOnce = (path: string) => kit.control('POST', 'faults', { kind: 'status', status: 404, method: 'GET', path, count: 1 });

function linkError(errors: readonly GraphQLFormattedError[], path: (string | number)[]) {
  const error = errors.find((e) => JSON.stringify(e.path) === JSON.stringify(path));
  expect(error, `an error at ${path.join('.')}; got ${JSON.stringify(errors)}`).toBeDefined();
  return error!;
}

describe('links to other records', () => {
  it("keeps a direct debit's mandate id when the bank answers 404 for the mandate, and says so on the link", async () => {
    await notFoundOnce('/api/v1/global_accounts/ga_demo_us/mandates/mdt_demo_us_1');
    const { data, errors } = await run(
      '{ directDebit(id: "ddt_demo_us_settled") { upstreamId mandateUpstreamId accountUpstreamId mandate { upstreamId } account { upstreamId } } }',
    );
    expect(data!.directDebit).toEqual({
      upstreamId: 'ddt_demo_us_settled',
      mandateUpstreamId: 'mdt_demo_us_1',
      accountUpstreamId: 'ga_demo_us',
      mandate: null,
      account: { upstreamId: 'ga_demo_us' },
    });
    expect(linkError(errors, ['directDebit', 'mandate']).extensions).toMatchObject({
      code: 'NOT_FOUND',
      type: 'Mandate',
      upstreamId: 'mdt_demo_us_1',
    });
    expect(errors).toHaveLength(1);
  });

  it("keeps a mandate's global account id when the account cannot be found", async () => {
    await notFoundOnce('/api/v1/global_accounts/ga_demo_us');
    const { data, errors } = await run(
      '{ directDebit(id: "ddt_demo_us_settled") { mandate { accountUpstreamId account { upstreamId } } } }',
    );
    expect(data!.directDebit).toEqual({ mandate: { accountUpstreamId: 'ga_demo_us', account: null } });
    expect(linkError(errors, ['directDebit', 'mandate', 'account']).extensions).toMatchObject({
      code: 'NOT_FOUND',
      type: 'GlobalAccount',
      upstreamId: 'ga_demo_us',
    });
  });

  it("keeps a card's cardholder id when the cardholder cannot be read", async () => {
    await notFoundOnce('/svc/api/v1/card/cardholder');
    const { data, errors } = await run(
      '{ card(id: "crd_demo_ava_v") { cardholderUpstreamId cardholder { ... on Cardholder { upstreamId } } cardholderSummary { cardholderUpstreamId } } }',
    );
    expect(data!.card).toEqual({
      cardholderUpstreamId: 'chd_demo_ava',
      cardholder: null,
      cardholderSummary: { cardholderUpstreamId: 'chd_demo_ava' },
    });
    expect(linkError(errors, ['card', 'cardholder']).extensions).toMatchObject({
      code: 'NOT_FOUND',
      type: 'Cardholder',
      upstreamId: 'chd_demo_ava',
    });
  });

  it("keeps a conversion's quote id when the quote cannot be read", async () => {
    const listed = await run('{ conversions(first: 1) { nodes { upstreamId quoteUpstreamId } } }');
    const conversion = (listed.data!.conversions as { nodes: { upstreamId: string; quoteUpstreamId: string | null }[] }).nodes[0]!;
    expect(conversion.quoteUpstreamId).toEqual(expect.any(String));
    await notFoundOnce('/svc/api/v1/transfer/quotedetails');
    const { data, errors } = await run(`{ conversion(id: "${conversion.upstreamId}") { quoteUpstreamId quote { upstreamId } } }`);
    expect(data!.conversion).toEqual({ quoteUpstreamId: conversion.quoteUpstreamId, quote: null });
    expect(linkError(errors, ['conversion', 'quote']).extensions).toMatchObject({
      code: 'NOT_FOUND',
      type: 'Quote',
      upstreamId: conversion.quoteUpstreamId,
    });
  });

  it("keeps an upcoming payout's beneficiary and quote ids, and reads both links when the bank has them", async () => {
    const { data, errors } = await run(
      '{ upcomingPayouts(first: 1) { nodes { beneficiaryUpstreamId quoteUpstreamId beneficiary { upstreamId } quote { upstreamId } } } }',
    );
    expect(errors).toEqual([]);
    const payout = (data!.upcomingPayouts as { nodes: Record<string, unknown>[] }).nodes[0]!;
    expect(payout.beneficiaryUpstreamId).toEqual(expect.any(String));
    expect(payout.beneficiary).toEqual({ upstreamId: payout.beneficiaryUpstreamId });
    expect(payout.quote).toEqual({ upstreamId: payout.quoteUpstreamId });
  });

  it('a root read of a record the bank does not have stays null without an error: only links error', async () => {
    const { data, errors } = await run(`{ node(id: "${encodeGlobalID('Payout', 'pyt_unknown')}") { id } }`);
    expect(errors).toEqual([]);
    expect(data!.node).toBeNull();
  });
});
