import { encodeGlobalID } from '@pothos/plugin-relay';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { BANK_ID_RULE } from '../../src/upstream/ids.ts';
import { useKit } from '../helpers/kit.ts';

/**
 * Ids go into the bank's paths, queries and headers: `.` and `..` would resolve to a parent path
 * (`DELETE /transfer/beneficiary/..` is `DELETE /transfer/`), `/` to another one. Every operation
 * that puts a caller's id there refuses such an id before any call, naming the field. One row per
 * endpoint (Document numbers of the README's table) and the operation that reaches it.
 */

const kit = useKit();

const BAD_IDS = ['.', '..', 'ben/../../account'];
const gid = (typename: string, id: string) => encodeGlobalID(typename, id);

interface Row {
  endpoints: string;
  /** The operation, given the bad bank id. */
  operation: (id: string) => string;
  /** Where the error names the field: an argument, or the mutation's input field. */
  path: string[];
  kind: 'query' | 'mutation';
}

const LIMITS = '[{interval: DAILY, amount: "10"}]';

const ROWS: Row[] = [
  { endpoints: '3, 6 GET account, transactions', kind: 'query', path: ['id'], operation: (id) => `{ account(id: "${id}") { id } }` },
  {
    endpoints: '4 DELETE account (x-account-id)',
    kind: 'mutation',
    path: ['input', 'accountId'],
    operation: (id) => `mutation { accountClose(input: {accountId: "${gid('Account', id)}"}) { __typename ...V } }`,
  },
  {
    endpoints: '10 PATCH beneficiary/{id}',
    kind: 'mutation',
    path: ['input', 'beneficiaryId'],
    operation: (id) =>
      `mutation { beneficiaryUpdate(input: {beneficiaryId: "${gid('Beneficiary', id)}", nickname: "x"}) { __typename ...V } }`,
  },
  { endpoints: '12 GET beneficiarylist/{id}', kind: 'query', path: ['id'], operation: (id) => `{ beneficiary(id: "${id}") { id } }` },
  {
    endpoints: '13 DELETE beneficiary/{id}',
    kind: 'mutation',
    path: ['input', 'beneficiaryId'],
    operation: (id) => `mutation { beneficiaryDelete(input: {beneficiaryId: "${gid('Beneficiary', id)}"}) { __typename ...V } }`,
  },
  {
    endpoints: '14 POST payout (beneficiaryId)',
    kind: 'mutation',
    path: ['input', 'beneficiaryId'],
    operation: (id) =>
      `mutation { payoutCreate(input: {beneficiaryId: "${gid('Beneficiary', id)}", quoteId: "${gid('Quote', 'qte_1')}", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10", destinationCountry: "DE", feeType: SHA, transferMethod: SWIFT, reference: "r", sourceOfFunds: "s", scheduledDate: "2099-01-01"}) { __typename ...V } }`,
  },
  { endpoints: '15 GET payout/{id}', kind: 'query', path: ['id'], operation: (id) => `{ payout(id: "${id}") { id } }` },
  {
    endpoints: '16 PATCH cancelpayout (id)',
    kind: 'mutation',
    path: ['input', 'payoutId'],
    operation: (id) => `mutation { payoutCancel(input: {payoutId: "${gid('Payout', id)}"}) { __typename ...V } }`,
  },
  { endpoints: '20 GET quotedetails?quote_id', kind: 'query', path: ['id'], operation: (id) => `{ quote(id: "${id}") { id } }` },
  {
    endpoints: '21 POST conversion (quote_id)',
    kind: 'mutation',
    path: ['input', 'quoteId'],
    operation: (id) =>
      `mutation { conversionCreate(input: {quoteId: "${gid('Quote', id)}", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "10"}) { __typename ...V } }`,
  },
  { endpoints: '22 GET conversion/{id}', kind: 'query', path: ['id'], operation: (id) => `{ conversion(id: "${id}") { id } }` },
  {
    endpoints: '24 POST card (card_holder_id)',
    kind: 'mutation',
    path: ['input', 'cardholderId'],
    operation: (id) =>
      `mutation { cardCreate(input: {cardholderId: "${gid('Cardholder', id)}", type: VIRTUAL, personalized: true, allowedTransactionCount: MULTIPLE, limitCurrency: "USD", limits: ${LIMITS}, createdBy: "Jane Doe"}) { __typename ...V } }`,
  },
  {
    endpoints: '25 POST card/assign (cardholder_id)',
    kind: 'mutation',
    path: ['input', 'cardholderId'],
    operation: (id) =>
      `mutation { cardAssign(input: {cardholderId: "${gid('Cardholder', id)}", cardNumber: "4111111111111111", currency: "USD", createdBy: "Jane Doe"}) { __typename ...V } }`,
  },
  {
    endpoints: '26, 27, 32 GET card?id, card/detail?id, card/transaction?id',
    kind: 'query',
    path: ['id'],
    operation: (id) => `{ card(id: "${id}") { id } }`,
  },
  {
    endpoints: '26 GET card?cardholder_id',
    kind: 'query',
    path: ['cardholderId'],
    operation: (id) => `{ cards(first: 1, cardholderId: "${gid('Cardholder', id)}") { nodes { id } } }`,
  },
  {
    endpoints: '28 POST card/activate?id',
    kind: 'mutation',
    path: ['input', 'cardId'],
    operation: (id) => `mutation { cardActivate(input: {cardId: "${gid('Card', id)}"}) { __typename ...V } }`,
  },
  {
    endpoints: '29 POST card/pin?id',
    kind: 'mutation',
    path: ['input', 'cardId'],
    operation: (id) => `mutation { cardPinReset(input: {cardId: "${gid('Card', id)}", pin: "123456"}) { __typename ...V } }`,
  },
  {
    endpoints: '30 PATCH card?id',
    kind: 'mutation',
    path: ['input', 'cardId'],
    operation: (id) =>
      `mutation { cardUpdate(input: {cardId: "${gid('Card', id)}", status: INACTIVE, updatedBy: "Jane Doe"}) { __typename ...V } }`,
  },
  {
    endpoints: '31 POST card/recharge?id',
    kind: 'mutation',
    path: ['input', 'cardId'],
    operation: (id) => `mutation { cardRecharge(input: {cardId: "${gid('Card', id)}", amount: "10"}) { __typename ...V } }`,
  },
  {
    endpoints: '35, 39-43 GET cardholder?id, wallet, kyc (x-cardholder-id, x-cardholderHash-id)',
    kind: 'query',
    path: ['id'],
    operation: (id) => `{ cardholder(id: "${id}") { id } }`,
  },
  {
    endpoints: '36 PATCH cardholder?id',
    kind: 'mutation',
    path: ['input', 'cardholderId'],
    operation: (id) =>
      `mutation { cardholderUpdate(input: {cardholderId: "${gid('Cardholder', id)}", mobileNumber: "+14155550100", updatedBy: "Jane Doe"}) { __typename ...V } }`,
  },
  {
    endpoints: '37 DELETE cardholder?id',
    kind: 'mutation',
    path: ['input', 'cardholderId'],
    operation: (id) => `mutation { cardholderDelete(input: {cardholderId: "${gid('Cardholder', id)}"}) { __typename ...V } }`,
  },
  {
    endpoints: '38 POST wallet (x-cardholder-id)',
    kind: 'mutation',
    path: ['input', 'cardholderId'],
    operation: (id) => `mutation { walletCreate(input: {cardholderId: "${gid('Cardholder', id)}", currency: "USD"}) { __typename ...V } }`,
  },
  {
    endpoints: '51-53 GET global_accounts/{id}, mandates',
    kind: 'query',
    path: ['id'],
    operation: (id) => `{ globalAccount(id: "${id}") { upstreamId } }`,
  },
  {
    endpoints: '51 x-on-behalf-of',
    kind: 'query',
    path: ['onBehalfOf'],
    operation: (id) => `{ globalAccount(id: "ga_demo_gb", onBehalfOf: "${id}") { upstreamId } }`,
  },
  {
    endpoints: '54 POST mandates/{mandate_id}/cancel',
    kind: 'mutation',
    path: ['input', 'mandateId'],
    operation: (id) => `mutation { mandateCancel(input: {mandateId: "${gid('Mandate', `~ga_demo_gb~${id}`)}"}) { __typename ...V } }`,
  },
  {
    endpoints: '54 POST global_accounts/{id}/mandates/…/cancel',
    kind: 'mutation',
    path: ['input', 'mandateId'],
    operation: (id) => `mutation { mandateCancel(input: {mandateId: "${gid('Mandate', `~${id}~mdt_demo_gb_1`)}"}) { __typename ...V } }`,
  },
  { endpoints: '56 GET direct_debits/{id}', kind: 'query', path: ['id'], operation: (id) => `{ directDebit(id: "${id}") { upstreamId } }` },
  {
    endpoints: '57 POST direct_debits/{id}/cancel',
    kind: 'mutation',
    path: ['input', 'directDebitId'],
    operation: (id) => `mutation { directDebitCancel(input: {directDebitId: "${gid('DirectDebit', `~${id}`)}"}) { __typename ...V } }`,
  },
];

const FRAGMENT = 'fragment V on ValidationError { issues { path message } }';

describe('ids that must not reach a path, query or header', () => {
  for (const row of ROWS) {
    it(`endpoint ${row.endpoints}: refused before any call, naming ${row.path.join('.')}`, async () => {
      for (const bad of BAD_IDS) {
        const text = row.operation(bad);
        const result = await kit.execute(parse(row.kind === 'mutation' ? `${text} ${FRAGMENT}` : text));
        if (row.kind === 'mutation') {
          const outcome = Object.values(result.data ?? {})[0] as { __typename: string; issues?: { path: string[]; message: string }[] };
          expect(outcome, `${bad}: ${JSON.stringify(result)}`).toEqual({
            __typename: 'ValidationError',
            issues: [{ path: row.path, message: BANK_ID_RULE }],
          });
        } else {
          expect(result.errors?.[0]?.extensions, `${bad}: ${JSON.stringify(result)}`).toMatchObject({
            code: 'BAD_USER_INPUT',
            issues: [{ path: row.path, message: BANK_ID_RULE }],
          });
        }
      }
      expect(kit.calls()).toEqual([]);
    });
  }

  it('node(id:) with a global ID carrying a dot segment is refused by the last guard, naming the parameter', async () => {
    const result = await kit.execute(parse(`{ node(id: "${gid('Beneficiary', '..')}") { id } }`));
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', issues: [{ path: ['beneficiaryId'] }] });
    expect(kit.calls()).toEqual([]);
  });

  it('plausible ids of every kind the sandbox hands out still go through', async () => {
    const result = await kit.execute(
      parse(
        '{ account(id: "acc_demo_usd") { upstreamId } card(id: "crd_demo_ava_v") { upstreamId } globalAccount(id: "ga_demo_gb") { upstreamId } directDebit(id: "ddt_demo_gb_settled") { upstreamId } }',
      ),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      account: { upstreamId: 'acc_demo_usd' },
      card: { upstreamId: 'crd_demo_ava_v' },
      globalAccount: { upstreamId: 'ga_demo_gb' },
      directDebit: { upstreamId: 'ddt_demo_gb_settled' },
    });
  });
});

/**
 * Mutation inputs take what root reads take: the record's global ID or the bank's own id. A global
 * ID of another type, or an id the bank rule refuses, is the mutation's typed ValidationError,
 * never a top-level error with `data: null`.
 */
describe('mutation inputs take the bank id as queries do', () => {
  const run = async (text: string) => {
    const result = await kit.execute(parse(`${text} ${FRAGMENT}`));
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return Object.values(result.data ?? {})[0] as Record<string, any>;
  };

  it('runs with bank ids where global IDs were the only way', async () => {
    expect(
      await run(
        'mutation { beneficiaryUpdate(input: {beneficiaryId: "ben_demo_sg", nickname: "SG supplier"}) { __typename ...V ... on BeneficiaryUpdateSuccess { beneficiary { upstreamId nickname } } } }',
      ),
    ).toEqual({
      __typename: 'BeneficiaryUpdateSuccess',
      beneficiary: { upstreamId: 'ben_demo_sg', nickname: 'SG supplier' },
    });
    expect(
      await run(
        'mutation { cardUpdate(input: {cardId: "crd_demo_ava_v", status: INACTIVE, updatedBy: "Jordan Miles"}) { __typename ...V ... on CardUpdateSuccess { card { upstreamId status } } } }',
      ),
    ).toEqual({
      __typename: 'CardUpdateSuccess',
      card: { upstreamId: 'crd_demo_ava_v', status: 'INACTIVE' },
    });
    expect(
      await run(
        'mutation { directDebitCancel(input: {directDebitId: "ddt_demo_gb_pending_1"}) { __typename ...V ... on DirectDebitCancelSuccess { directDebit { upstreamId status } } } }',
      ),
    ).toEqual({
      __typename: 'DirectDebitCancelSuccess',
      directDebit: { upstreamId: 'ddt_demo_gb_pending_1', status: 'CANCELLED' },
    });
    expect(kit.calls('/svc/api/v1/transfer/beneficiary/ben_demo_sg', 'PATCH')).toHaveLength(1);
    // The cards filter, an argument like these, takes either too.
    const cards = await kit.execute(parse('{ cards(first: 5, cardholderId: "chd_demo_ava") { edges { node { cardholderUpstreamId } } } }'));
    expect(cards.errors).toBeUndefined();
    const holders = (cards.data as { cards: { edges: { node: { cardholderUpstreamId: string } }[] } }).cards.edges.map(
      (edge) => edge.node.cardholderUpstreamId,
    );
    expect(holders.length).toBeGreaterThan(0);
    expect(new Set(holders)).toEqual(new Set(['chd_demo_ava']));
  });

  it('answers a global ID of another type, or an id a mandate cannot be found by, with a ValidationError naming the field', async () => {
    expect(
      await run(
        `mutation { cardUpdate(input: {cardId: "${gid('Cardholder', 'chd_demo_ava')}", status: INACTIVE, updatedBy: "Jordan Miles"}) { __typename ...V } }`,
      ),
    ).toEqual({
      __typename: 'ValidationError',
      issues: [
        { path: ['input', 'cardId'], message: "is the global ID of a Cardholder, not of a Card: give its global ID or the bank's own id" },
      ],
    });
    // A mandate is read under its global account: the bank's mandate id alone does not say which.
    expect(await run('mutation { mandateCancel(input: {mandateId: "mdt_demo_gb_2"}) { __typename ...V } }')).toEqual({
      __typename: 'ValidationError',
      issues: [
        {
          path: ['input', 'mandateId'],
          message: "needs the Mandate's global ID (`Mandate.id`): it carries the 1 other id(s) the bank needs with it",
        },
      ],
    });
    expect(kit.calls()).toEqual([]);
  });
});
