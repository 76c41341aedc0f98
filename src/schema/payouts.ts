import { z } from 'zod';
import { arrayConnection } from './connections.ts';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { moneyOf } from '../upstream/models.ts';
import { FEE_TYPES, PAYOUT_STATUSES, type Payout, type PayoutStatus as PayoutStatusValue } from '../upstream/payouts.ts';
import { TransferMethod } from './accounts.ts';
import { BeneficiaryNode } from './beneficiaries.ts';
import { onlyFound } from './batched-reads.ts';
import { today } from './dates.ts';
import { readLink } from './links.ts';
import { sortedByTime } from './list-order.ts';
import { Money } from './money.ts';
import { MUTATION_ERRORS } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { upstreamIdFrom, bankIdIn, globalIdRule, recordIdDescription } from './record-ids.ts';
import { QuoteNode, assertMatchesQuote, exchangeAmountFields, oneAmountRule } from './fx.ts';
import { loaderBatch } from './loader-batch.ts';

/** Document 1, section 4.4 in the graph: payouts to beneficiaries. */

const STATUS_TEXT: Record<(typeof PAYOUT_STATUSES)[number], string> = {
  PENDING: 'Scheduled for a later day; the only state a payout can be cancelled in.',
  PROCESSING: 'Being paid out: the balance has been debited.',
  COMPLETED: 'Paid out.',
  CANCELLED: 'Cancelled before processing; nothing was debited.',
  FAILED: 'Could not be paid out (e.g. insufficient funds); nothing was debited.',
};

const PayoutStatus = builder.enumType('PayoutStatus', {
  description: 'Where a payout stands. The documents name PENDING and PROCESSING; the others are the sandbox\u2019s, described in docs/sandbox.md.',
  values: Object.fromEntries(PAYOUT_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

const FeeType = builder.enumType('PayoutFeeType', {
  description: 'Who pays the transfer fees.',
  values: {
    OUR: { value: 'OUR' as const, description: 'The business pays all fees; the beneficiary receives the full amount.' },
    SHA: { value: 'SHA' as const, description: 'Fees are shared: the beneficiary bears the receiving side.' },
  },
});
FEE_TYPES satisfies readonly ('OUR' | 'SHA')[];

/** The status endpoint answers id and status only: other fields are known where the payout came from create or the upcoming list. */
async function loadPayouts(ids: string[], context: GatewayContext): Promise<Payout[]> {
  return onlyFound(await Promise.all(ids.map((id) => context.upstream.payouts.status(id))));
}

// Declared apart so fields of the node can use its loader without a circular type.
const payoutLoader = (context: GatewayContext): { load(id: string): Promise<Payout | null>; clear(id: string): unknown } =>
  PayoutNode.getDataloader(context);

export const PayoutNode = builder.loadableNode('Payout', {
  authScopes: { permission: 'payouts:read' },
  description:
    'Money sent to a beneficiary. The bank reports a payout\u2019s details only at creation and while it is upcoming; elsewhere only its status is known and the other fields are null.',
  id: { resolve: (payout) => payout.id },
  load: loaderBatch('Payout', loadPayouts),
  sort: (payout) => payout.id,
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's id of the payout." }),
    systemReferenceNumber: t.exposeString('systemReferenceNumber', { description: "The bank's reference; payoutCancel accepts it too." }),
    status: t.field({
      type: PayoutStatus,
      description: 'Where the payout stands (read from the bank when not already known).',
      resolve: async (payout, _args, context): Promise<PayoutStatusValue | null> =>
        payout.status ?? (await payoutLoader(context).load(payout.id))?.status ?? null,
    }),
    sourceAmount: t.field({
      type: Money,
      description: 'Amount debited, when the payout was quoted on the source side.',
      resolve: (p) => moneyOf(p.sourceAmount, p.sourceCurrencycode),
    }),
    sourceCurrency: t.expose('sourceCurrencycode', { type: 'Currency', description: 'Currency debited.' }),
    destinationAmount: t.field({
      type: Money,
      description: 'Amount the beneficiary receives, when the payout was quoted on the destination side.',
      resolve: (p) => moneyOf(p.destinationAmount, p.destinationCurrencycode),
    }),
    destinationCurrency: t.expose('destinationCurrencycode', { type: 'Currency', description: 'Currency the beneficiary receives.' }),
    destinationCountry: t.expose('destinationCountry', { type: 'CountryCode', description: 'Country the money goes to.' }),
    feeType: t.expose('feeType', { type: FeeType, description: 'Who pays the fees.' }),
    transferMethod: t.expose('transferMethod', { type: TransferMethod, description: 'LOCAL or SWIFT.' }),
    reference: t.exposeString('reference', { description: 'Payment reference the beneficiary sees.' }),
    sourceOfFunds: t.exposeString('sourceOfFunds', { description: 'Declared purpose or source of the funds.' }),
    scheduledDate: t.expose('scheduledPayoutDate', { type: 'Date', description: 'Day the payout is processed.' }),
    createdAt: t.expose('createdTime', { type: 'DateTime', description: 'When it was created, where the bank says.' }),
    quoteUpstreamId: t.exposeString('quoteId', { description: "The bank's id of the quote it was made against, where the bank reports it." }),
    quote: t.field({
      type: QuoteNode,
      description: 'The quote it was made against. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `quoteUpstreamId` either way.',
      resolve: (p, _args, context) => readLink(QuoteNode, p.quoteId, p.quoteId, context),
    }),
    beneficiaryUpstreamId: t.exposeString('beneficiaryId', { description: "The bank's id of the beneficiary paid, where the bank reports it." }),
    beneficiary: t.field({
      type: BeneficiaryNode,
      description: 'Who is paid. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `beneficiaryUpstreamId` either way.',
      resolve: (p, _args, context) => readLink(BeneficiaryNode, p.beneficiaryId, p.beneficiaryId, context),
    }),
  }),
});

builder.queryFields((t) => ({
  payout: t.field({
    authScopes: { permission: 'payouts:read' },
    type: PayoutNode,
    description: "A payout by its global ID or the bank's id; null when there is none.",
    args: { id: t.arg.id({ required: true, description: "Global ID or the bank's payout id.", validate: globalIdRule('Payout') }) },
    resolve: (_root, args) => upstreamIdFrom(String(args.id), 'Payout'),
  }),
  upcomingPayouts: t.connection(
    {
      authScopes: { permission: 'payouts:read' },
      type: PayoutNode,
      description:
        'Payouts scheduled and not yet processed, soonest scheduled day first (those without one last, in the bank\'s order). The bank answers the whole list at once, so the gateway sorts it.',
      resolve: async (_root, args, context) =>
        arrayConnection(args, sortedByTime(await context.upstream.payouts.upcoming(), (p) => p.scheduledPayoutDate, 'earliest')),
    },
    { name: 'PayoutConnection' },
    { name: 'PayoutEdge' },
  ),
}));


const PayoutCreateInput = builder.inputType('PayoutCreateInput', {
  description: 'A payout to a beneficiary against a payout quote: currencies and amount must be the quote\u2019s.',
  fields: (t) => ({
    beneficiaryId: t.id({ required: true, description: recordIdDescription('Beneficiary', 'The beneficiary') }),
    quoteId: t.id({ required: true, description: recordIdDescription('Quote', 'A payout quote') }),
    ...exchangeAmountFields(t),
    destinationCountry: t.field({ type: 'CountryCode', required: true, description: 'Country the money goes to.' }),
    feeType: t.field({ type: FeeType, required: true, description: 'Who pays the fees.' }),
    transferMethod: t.field({ type: TransferMethod, required: true, description: 'LOCAL or SWIFT; the beneficiary must support it.' }),
    reference: t.string({
      required: true,
      description: 'Payment reference or remark the beneficiary sees.',
      validate: z.string().trim().min(1, 'must not be blank').max(140, 'must be at most 140 characters'),
    }),
    sourceOfFunds: t.string({
      required: true,
      description: 'Purpose or source of the funds.',
      validate: z.string().trim().min(1, 'must not be blank').max(140, 'must be at most 140 characters'),
    }),
    scheduledDate: t.field({
      type: 'Date',
      description: 'Day to pay out: today or later (UTC). Default: today.',
      validate: z.string().refine((day) => day >= today(), 'must be today or a future date').nullish(),
    }),
  }),
  validate: oneAmountRule,
});

builder.mutationField('payoutCreate', (t) =>
  t.field({
    authScopes: { permission: 'payouts:write' },
    type: PayoutNode,
    nullable: false,
    description:
      'Pays a beneficiary on the scheduled day against a payout quote. Send an idempotencyKey: a retried request with the same key creates one payout.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'payout', description: 'The new payout.' } },
    args: { input: t.arg({ type: PayoutCreateInput, required: true, description: 'The payout.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const beneficiaryId = bankIdIn(input.beneficiaryId, ['input', 'beneficiaryId'], 'Beneficiary');
      const quoteId = bankIdIn(input.quoteId, ['input', 'quoteId'], 'Quote');
      await assertMatchesQuote(context, quoteId, input, 'payout');
      return context.upstream.payouts.create({ ...input, scheduledDate: input.scheduledDate ?? today(), beneficiaryId, quoteId }, idempotencyKey);
    },
  }),
);

const PayoutCancelInput = builder.inputType('PayoutCancelInput', {
  description: 'The payout to cancel, by its ID or by the bank\u2019s system reference number (one of the two).',
  fields: (t) => ({
    payoutId: t.id({ description: recordIdDescription('Payout', 'The payout') }),
    systemReferenceNumber: t.string({ description: "The bank's system reference number of the payout." }),
  }),
  validate: z
    .looseObject({
      payoutId: z.string().nullish(),
      systemReferenceNumber: z.string().nullish(),
    })
    .refine((input) => (input.payoutId == null) !== (input.systemReferenceNumber == null), {
      path: ['payoutId'],
      message: 'give payoutId or systemReferenceNumber, exactly one',
    }),
});

const PayoutCancelled = builder.objectRef<{ target: { id: string } | { systemReferenceNumber: string } }>('PayoutCancelled').implement({
  description: 'The payout is cancelled; nothing will be debited.',
  fields: (t) => ({
    payout: t.field({
      type: PayoutNode,
      description: 'The payout as it stands now, when it was cancelled by ID (read again only if asked for).',
      resolve: ({ target }) => ('id' in target ? target.id : null),
    }),
    systemReferenceNumber: t.string({
      description: 'The reference it was cancelled by, when cancelled by reference.',
      resolve: ({ target }) => ('systemReferenceNumber' in target ? target.systemReferenceNumber : null),
    }),
  }),
});

builder.mutationField('payoutCancel', (t) =>
  t.field({
    authScopes: { permission: 'payouts:write' },
    type: PayoutCancelled,
    nullable: false,
    description: 'Cancels a PENDING payout. A payout in any other state cannot be cancelled: the bank\u2019s refusal comes back as UpstreamRejection.',
    errors: { types: MUTATION_ERRORS, dataField: { name: 'result', description: 'What was cancelled.' } },
    args: { input: t.arg({ type: PayoutCancelInput, required: true, description: 'The payout to cancel.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const target: { id: string } | { systemReferenceNumber: string } = input.payoutId
        ? { id: bankIdIn(input.payoutId, ['input', 'payoutId'], 'Payout') }
        : { systemReferenceNumber: String(input.systemReferenceNumber) };
      await context.upstream.payouts.cancel(target, idempotencyKey);
      if ('id' in target) payoutLoader(context).clear(target.id);
      return { target };
    },
  }),
);
