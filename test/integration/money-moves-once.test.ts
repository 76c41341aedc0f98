import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ConversionCreateDocument,
  DirectDebitCancelDocument,
  PayoutCreateDocument,
  type ConversionCreateInput,
  type PayoutCreateInput,
} from '../generated/graphql.ts';
import { createQuote, PATHS, payoutInput } from '../helpers/flows.ts';
import { runWs } from '../helpers/auth-clients.ts';
import { useKit, type Kit } from '../helpers/kit.ts';

/**
 * Money moves once (docs/frontend.md, "Sending money safely"): a write whose answer is lost after
 * the bank applied it (the sandbox's `lose` fault) answers OutcomeUnknown with the key it was sent
 * with; a retry with that key returns the bank's one record; a retry without it that the bank
 * refuses answers MayHaveGoneThrough, never a plain rejection; and the bank holds exactly one.
 */

const CONVERSION = '/svc/api/v1/transfer/conversion';
const DIRECT_DEBITS = '/api/v1/direct_debits';

// Listening: one test sends its writes over graphql-ws.
const kit = useKit({ cache: false, listen: true });

/** The answer's typed result, whatever the mutation. */
type Outcome = { __typename: string; [key: string]: unknown };

interface Write {
  name: string;
  /** The bank path the write goes to: where the answer is lost. */
  path: (target: string) => string;
  /** What the write is about (a payout's reference, a conversion's quote, a direct debit), and a sender of it. */
  prepare(kit: Kit): Promise<{ target: string; send: (idempotencyKey?: string) => Promise<Outcome> }>;
  /** The records the bank holds for the target: exactly one once the write was applied. */
  held(kit: Kit, target: string): number;
  success: string;
  /** Whether the bank keeps the key (x-request-id): Document 3's direct debit family sends none, so the gateway reads the record instead. */
  bankKeepsKey: boolean;
}

const WRITES: Write[] = [
  {
    name: 'payoutCreate',
    path: () => PATHS.payout,
    success: 'PayoutCreateSuccess',
    bankKeepsKey: true,
    async prepare(kit) {
      const input: PayoutCreateInput = await payoutInput(kit, { reference: `Invoice ${randomUUID().slice(0, 8)}` });
      return {
        target: input.reference,
        send: async (idempotencyKey) => (await kit.execute(PayoutCreateDocument, { input, idempotencyKey })).data!.payoutCreate,
      };
    },
    held: (kit, reference) => [...kit.sandbox.store.payouts.values()].filter((payout) => payout.reference === reference).length,
  },
  {
    name: 'conversionCreate',
    path: () => CONVERSION,
    success: 'ConversionCreateSuccess',
    bankKeepsKey: true,
    async prepare(kit) {
      const quote = await createQuote(kit, { conversionSchedule: 'NEXT_DAY' });
      const input: ConversionCreateInput = { quoteId: quote.id, sourceCurrency: 'USD', destinationCurrency: 'EUR', sourceAmount: '1000' };
      return {
        target: quote.upstreamId,
        send: async (idempotencyKey) => (await kit.execute(ConversionCreateDocument, { input, idempotencyKey })).data!.conversionCreate,
      };
    },
    held: (kit, quoteId) => [...kit.sandbox.store.conversions.values()].filter((conversion) => conversion.quoteId === quoteId).length,
  },
  {
    name: 'directDebitCancel',
    path: (id) => `${DIRECT_DEBITS}/${id}/cancel`,
    success: 'DirectDebitCancelSuccess',
    bankKeepsKey: false,
    async prepare(kit) {
      // A pending UK collection of the demo data (each test starts from a fresh sandbox).
      const id = 'ddt_demo_gb_pending_1';
      return {
        target: id,
        send: async (idempotencyKey) =>
          (await kit.execute(DirectDebitCancelDocument, { input: { directDebitId: id }, idempotencyKey })).data!.directDebitCancel,
      };
    },
    held: (kit, id) => (kit.sandbox.store.directDebits.get(id)?.status === 'CANCELLED' ? 1 : 0),
  },
];

/** The next write to `path` is applied by the bank and its answer lost on the way back. */
const loseTheAnswer = (path: string) => kit.control('POST', 'faults', { kind: 'lose', method: 'POST', path });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(WRITES)('$name whose answer is lost after the bank applied it', (write) => {
  it('answers OutcomeUnknown with the key the gateway made; a retry with it returns the one record', async () => {
    const { target, send } = await write.prepare(kit);
    await loseTheAnswer(write.path(target));
    const lost = await send();
    expect(lost).toMatchObject({
      __typename: 'OutcomeUnknown',
      idempotencyKey: expect.stringMatching(UUID),
      check: expect.stringContaining('before doing anything else'),
    });
    expect(lost.message).toContain(`idempotencyKey "${String(lost.idempotencyKey)}"`);
    expect(write.held(kit, target)).toBe(1);

    const retried = await send(String(lost.idempotencyKey));
    expect(retried.__typename).toBe(write.success);
    expect(write.held(kit, target)).toBe(1);
    // Both went with the gateway's key, which the bank replayed; or, where the bank keeps none, the retry found the record done.
    const sentKey = write.bankKeepsKey ? lost.idempotencyKey : null;
    expect(kit.calls(write.path(target), 'POST').map((call) => call.requestId)).toEqual([sentKey, sentKey]);
    const records = kit.audit().filter((record) => record.field === write.name);
    expect(records.map((record) => [record.outcome, record.idempotencyKey, record.idempotencyKeyBy])).toEqual([
      ['outcome_unknown', lost.idempotencyKey, 'gateway'],
      ['success', lost.idempotencyKey, 'client'],
    ]);
  });

  it('answers a retry without the key, which the bank refuses, MayHaveGoneThrough naming the earlier key', async () => {
    const { target, send } = await write.prepare(kit);
    await loseTheAnswer(write.path(target));
    const lost = await send();
    expect(lost.__typename).toBe('OutcomeUnknown');

    const again = await send();
    expect(again).toMatchObject({
      __typename: 'MayHaveGoneThrough',
      earlierIdempotencyKey: lost.idempotencyKey,
      upstreamStatus: expect.any(Number),
      check: expect.stringContaining('before doing anything else'),
    });
    expect(again.requestId).not.toBe(lost.idempotencyKey);
    expect(write.held(kit, target)).toBe(1);
    expect(
      kit
        .audit()
        .filter((record) => record.field === write.name)
        .map((record) => [record.outcome, record.detail]),
    ).toEqual([
      ['outcome_unknown', 'OutcomeUnknown'],
      ['bank_rejection', 'MayHaveGoneThrough'],
    ]);

    // The earlier key still answers the one result.
    expect((await send(String(lost.idempotencyKey))).__typename).toBe(write.success);
    expect(write.held(kit, target)).toBe(1);
  });

  it("with the client's own key: OutcomeUnknown names that key, and the retry with it returns the one record", async () => {
    const { target, send } = await write.prepare(kit);
    const key = `client-${randomUUID()}`;
    await loseTheAnswer(write.path(target));
    expect(await send(key)).toMatchObject({ __typename: 'OutcomeUnknown', idempotencyKey: key });
    expect((await send(key)).__typename).toBe(write.success);
    expect(write.held(kit, target)).toBe(1);
    const sentKey = write.bankKeepsKey ? key : null;
    expect(kit.calls(write.path(target), 'POST').map((call) => call.requestId)).toEqual([sentKey, sentKey]);
  });
});

describe('a write refused without an earlier unknown outcome', () => {
  it('is still a plain UpstreamRejection', async () => {
    const { send } = await WRITES[0]!.prepare(kit);
    expect((await send()).__typename).toBe('PayoutCreateSuccess');
    // The quote is used now: a second payout against it is refused, and nothing was uncertain.
    expect(await send()).toMatchObject({ __typename: 'UpstreamRejection', upstreamMessage: expect.stringContaining('already') });
  });

  it('is a 5xx answered OutcomeUnknown, and the retry with its key applies it once', async () => {
    const { target, send } = await WRITES[0]!.prepare(kit);
    await kit.control('POST', 'faults', { kind: 'status', status: 503, method: 'POST', path: PATHS.payout });
    const failed = await send();
    expect(failed.__typename).toBe('OutcomeUnknown');
    expect(WRITES[0]!.held(kit, target)).toBe(0);
    expect((await send(String(failed.idempotencyKey))).__typename).toBe('PayoutCreateSuccess');
    expect(WRITES[0]!.held(kit, target)).toBe(1);
  });

  it('is a connection dropped before the bank handled it: on the wire that looks like a lost answer, so OutcomeUnknown, and its key applies it once', async () => {
    const { target, send } = await WRITES[0]!.prepare(kit);
    await kit.control('POST', 'faults', { kind: 'drop', method: 'POST', path: PATHS.payout });
    const dropped = await send();
    expect(dropped.__typename).toBe('OutcomeUnknown');
    expect(WRITES[0]!.held(kit, target)).toBe(0);
    expect((await send(String(dropped.idempotencyKey))).__typename).toBe('PayoutCreateSuccess');
    expect(WRITES[0]!.held(kit, target)).toBe(1);
  });
});

describe('over graphql-ws', () => {
  it('answers OutcomeUnknown with the key, and the retry with it over the socket makes one payout', async () => {
    const input = await payoutInput(kit, { reference: `Invoice ws-${randomUUID().slice(0, 8)}` });
    const reference = input.reference;
    const mutation = (key?: string) =>
      `mutation { payoutCreate(input: { beneficiaryId: "${input.beneficiaryId}", quoteId: "${input.quoteId}", sourceCurrency: "USD", destinationCurrency: "EUR", sourceAmount: "1000", destinationCountry: "DE", feeType: OUR, transferMethod: SWIFT, reference: "${reference}", sourceOfFunds: "Revenue" }${key ? `, idempotencyKey: "${key}"` : ''}) { __typename ... on OutcomeUnknown { idempotencyKey } ... on PayoutCreateSuccess { payout { upstreamId } } } }`;
    await loseTheAnswer(PATHS.payout);
    const lost = await runWs(kit.baseUrl!, mutation());
    if (!('result' in lost)) throw new Error(`the socket closed: ${JSON.stringify(lost)}`);
    expect(lost.result.data.payoutCreate).toMatchObject({ __typename: 'OutcomeUnknown', idempotencyKey: expect.stringMatching(UUID) });
    const retried = await runWs(kit.baseUrl!, mutation(lost.result.data.payoutCreate.idempotencyKey));
    if (!('result' in retried)) throw new Error(`the socket closed: ${JSON.stringify(retried)}`);
    expect(retried.result.data.payoutCreate.__typename).toBe('PayoutCreateSuccess');
    expect(WRITES[0]!.held(kit, reference)).toBe(1);
  });
});
