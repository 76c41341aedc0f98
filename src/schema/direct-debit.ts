/**
 * Document 3, sections 2.4-2.7, 4.2 and 4.3 in the graph: global accounts, direct debit mandates and
 * payouts, linked both ways, and the queries that read them. Writes: direct-debit-mutations.ts.
 */

/*
 * Every read and write can act for a connected account (x-on-behalf-of): the records it returns
 * remember it, and their global IDs carry it, so links and later mutations act for the same account
 * (direct-debit-reads.ts).
 */

import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { DIRECT_DEBIT_STATUSES, type DirectDebit, type GlobalAccount, type Mandate } from '../upstream/direct-debit.ts';
import { RoutingCodeType } from './accounts.ts';
import { onlyFound } from './batched-reads.ts';
import { arrayConnection, pagedConnection } from './connections.ts';
import { OpenDateRangeInput, windowOrderRule } from './dates.ts';
import { acting, keyOf, MAX_SCAN_PAGES, partsOf, scanDirectDebits, type Acting } from './direct-debit-reads.ts';
import { readLink } from './links.ts';
import { BANK_ORDER } from './list-order.ts';
import { Money, money } from './money.ts';
import { bankIdRule } from './record-ids.ts';
import { disputeWindow, type DisputeWindow } from './dispute-windows.ts';
import { loaderBatch } from './loader-batch.ts';

export { keyOf } from './direct-debit-reads.ts';

// --- Global account -----------------------------------------------------------------------------

const Capability = builder.objectRef<GlobalAccount['capability']>('GlobalAccountCapability').implement({
  description: 'What a global account can do.',
  fields: (t) => ({
    supportsDirectDebit: t.exposeBoolean('supportDirectDebit', { nullable: false, description: 'Whether creditors can collect direct debits from it.' }),
    clearingSystems: t.exposeStringList('clearingSystems', { nullable: false, description: 'Clearing systems it is reachable through.' }),
    paymentMethods: t.exposeStringList('paymentMethods', { nullable: false, description: 'Payment methods it accepts.' }),
  }),
});

const GlobalInstitution = builder.objectRef<NonNullable<GlobalAccount['institution']>>('GlobalAccountInstitution').implement({
  description: 'The bank holding a global account.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Bank name.' }),
    branchName: t.exposeString('branchName', { description: 'Branch.' }),
    address: t.exposeString('address', { description: 'Address.' }),
    city: t.exposeString('city', { description: 'City.' }),
    zipCode: t.exposeString('zipCode', { description: 'Postal code.' }),
  }),
});

export const GlobalAccountNode = builder.loadableNodeRef<Acting<GlobalAccount>, string>('GlobalAccount', {
  id: { resolve: (a) => keyOf(a.actingFor, a.id) },
  load: loaderBatch('GlobalAccount', async (keys: string[], context: GatewayContext) =>
    onlyFound(
      await Promise.all(
        keys.map(async (key) => {
          const { actingFor, parts } = partsOf(key);
          const account = await context.upstream.directDebit.globalAccount(parts[0] ?? '', actingFor);
          return account ? acting<GlobalAccount>(actingFor)(account) : null;
        }),
      ),
    )),
  sort: (a) => keyOf(a.actingFor, a.id),
});

GlobalAccountNode.implement({
  authScopes: { permission: 'direct-debit:read' },
  description:
    'A global account (Document 3, 2.4): where creditors collect direct debits. The bank has no list of them: read one by id (the demo ids are in the README).',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's global account id." }),
    actingFor: t.exposeString('actingFor', { description: 'The connected account it was read for (x-on-behalf-of), if any.' }),
    accountName: t.exposeString('accountName', { description: 'Account name.' }),
    accountNumber: t.exposeString('accountNumber', { description: 'Account number.' }),
    accountType: t.exposeString('accountType', { description: 'Account type.' }),
    nickname: t.exposeString('nickName', { description: 'Nickname.' }),
    country: t.expose('countryCode', { type: 'CountryCode', nullable: false, description: 'Country of the account.' }),
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Currency.' }),
    iban: t.exposeString('iban', { description: 'IBAN, where it has one.' }),
    requestId: t.exposeString('requestId', { description: 'Request id it was opened with.' }),
    institution: t.field({ type: GlobalInstitution, description: 'Holding bank.', resolve: (a) => a.institution }),
    routingCodes: t.field({ type: [RoutingCodeType], nullable: false, description: 'Routing codes (sort code, ACH, BSB, SWIFT...).', resolve: (a) => a.routingCodes }),
    capability: t.field({ type: Capability, nullable: false, description: 'Direct debit capability.', resolve: (a) => a.capability }),
    mandates: t.connection(
      {
        type: MandateNode,
        description: `Direct debit mandates on this account (UK GBP mandates). ${BANK_ORDER}`,
        args: {
          status: t.arg.string({ description: 'Only mandates in this status, e.g. ACTIVE or CANCELLED.' }),
          dateRange: t.arg({
            type: OpenDateRangeInput,
            description: 'Only mandates created on these days; either end may be left out (open on that side). Without it, every mandate.',
            validate: windowOrderRule,
          }),
        },
        resolve: (account, args, context) =>
          pagedConnection(args, async (slice) => {
            const result = await context.upstream.directDebit.mandates(
              account.id,
              { ...slice, status: args.status, fromDate: args.dateRange?.from, toDate: args.dateRange?.to },
              account.actingFor,
            );
            return result.items.map(acting<Mandate>(account.actingFor));
          }),
      },
      { name: 'MandateConnection' },
      { name: 'MandateEdge' },
    ),
    directDebits: t.connection(
      {
        type: DirectDebitNode,
        description: `Direct debit payouts from this account, in the bank's order (its list is not documented as sorted). The bank lists payouts across all accounts only, so this scans at most ${MAX_SCAN_PAGES} pages of 100.`,
        args: { dateRange: t.arg({ type: OpenDateRangeInput, description: 'Only payouts created on these days. Either end may be left out: without `from`, the bank answers the 30 days before `to` (before today without either, Document 3, section 8); with `from` alone, from that day on.', validate: windowOrderRule }) },
        resolve: async (account, args, context) =>
          arrayConnection(
            args,
            await scanDirectDebits(context, { fromDate: args.dateRange?.from, toDate: args.dateRange?.to }, account.actingFor, 'globalAccountId', account.id),
          ),
      },
      { name: 'GlobalAccountDirectDebitConnection' },
      { name: 'GlobalAccountDirectDebitEdge' },
    ),
  }),
});

// --- Mandate ------------------------------------------------------------------------------------

export const MandateNode = builder.loadableNodeRef<Acting<Mandate>, string>('Mandate', {
  id: { resolve: (m) => keyOf(m.actingFor, m.globalAccountId, m.id) },
  load: loaderBatch('Mandate', async (keys: string[], context: GatewayContext) =>
    onlyFound(
      await Promise.all(
        keys.map(async (key) => {
          const { actingFor, parts } = partsOf(key);
          const mandate = await context.upstream.directDebit.mandate(parts[0] ?? '', parts[1] ?? '', actingFor);
          return mandate ? acting<Mandate>(actingFor)(mandate) : null;
        }),
      ),
    )),
  sort: (m) => keyOf(m.actingFor, m.globalAccountId, m.id),
});

MandateNode.implement({
  authScopes: { permission: 'direct-debit:read' },
  description: 'A direct debit mandate (Document 3, 2.5): a creditor\u2019s permission to collect from a global account.',
  fields: (t) => ({
    upstreamId: t.exposeString('id', { nullable: false, description: "The bank's mandate id." }),
    status: t.exposeString('status', { nullable: false, description: 'ACTIVE, or CANCELLED once cancelled (the bank names no other state).' }),
    creditorName: t.exposeString('creditorName', { description: 'Who collects.' }),
    debtorName: t.exposeString('debtorName', { description: 'Who pays.' }),
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'Currency collected.' }),
    paymentScheme: t.exposeString('paymentScheme', { description: 'Scheme, e.g. BACS.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the mandate was created.' }),
    setupAt: t.expose('setupTime', { type: 'DateTime', description: 'When it was set up.' }),
    accountUpstreamId: t.exposeString('globalAccountId', { nullable: false, description: "The bank's id of the global account collected from (global_account_id)." }),
    account: t.field({
      type: GlobalAccountNode,
      description: 'The account collected from. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `accountUpstreamId` either way.',
      resolve: (m, _args, context) => readLink(GlobalAccountNode, keyOf(m.actingFor, m.globalAccountId), m.globalAccountId, context),
    }),
    directDebits: t.connection(
      {
        type: DirectDebitNode,
        description: `Payouts collected under this mandate, in the bank's order (scans at most ${MAX_SCAN_PAGES} pages of 100 of the bank's list).`,
        args: { dateRange: t.arg({ type: OpenDateRangeInput, description: 'Only payouts created on these days. Either end may be left out: without `from`, the bank answers the 30 days before `to` (before today without either, Document 3, section 8); with `from` alone, from that day on.', validate: windowOrderRule }) },
        resolve: async (mandate, args, context) =>
          arrayConnection(
            args,
            await scanDirectDebits(context, { fromDate: args.dateRange?.from, toDate: args.dateRange?.to }, mandate.actingFor, 'mandateId', mandate.id),
          ),
      },
      { name: 'MandateDirectDebitConnection' },
      { name: 'MandateDirectDebitEdge' },
    ),
  }),
});

// --- Direct debit payout ------------------------------------------------------------------------

const STATUS_TEXT: Record<(typeof DIRECT_DEBIT_STATUSES)[number], string> = {
  NEW: 'Instruction received.',
  IN_REVIEW: 'On hold for review.',
  PENDING: 'Pending settlement (GBP: a few hours up to about 45 hours); UK GBP payouts can be cancelled now.',
  SETTLED: 'Debited from the balance.',
  REJECTED: 'Rejected (e.g. its mandate was cancelled).',
  RETURNED: 'Disputed successfully; the funds were credited back.',
  CANCELLED: 'Cancelled while pending (the bank names no state for it: the sandbox says CANCELLED).',
};

const DirectDebitStatus = builder.enumType('DirectDebitStatus', {
  description: 'Where a direct debit payout stands (Document 3, section 3).',
  values: Object.fromEntries(DIRECT_DEBIT_STATUSES.map((s) => [s, { value: s, description: STATUS_TEXT[s] }])),
});

const PayerType = builder.enumType('DisputePayerType', {
  description: 'Who the payer is, which decides the dispute window.',
  values: {
    BUSINESS: { value: 'BUSINESS' as const, description: 'A business customer (this gateway\u2019s usual case).' },
    INDIVIDUAL: { value: 'INDIVIDUAL' as const, description: 'An individual.' },
  },
});

const DisputeWindowType = builder.objectRef<DisputeWindow>('DisputeWindow').implement({
  description: 'How long a payout can be disputed through support (Document 3, section 4.3).',
  fields: (t) => ({
    rule: t.exposeString('rule', { nullable: false, description: 'Which row of the table applies.' }),
    withoutReviewUntil: t.expose('withoutReviewUntil', { type: 'DateTime', description: 'Last moment to dispute without review; null when not applicable.' }),
    withReviewUntil: t.expose('withReviewUntil', { type: 'DateTime', description: 'Last moment to dispute with review; null when unlimited.' }),
    indefinite: t.exposeBoolean('indefinite', { nullable: false, description: 'Whether disputes with review have no deadline.' }),
  }),
});

export const DirectDebitNode = builder.loadableNodeRef<Acting<DirectDebit>, string>('DirectDebit', {
  id: { resolve: (d) => keyOf(d.actingFor, d.transactionId) },
  load: loaderBatch('DirectDebit', async (keys: string[], context: GatewayContext) =>
    onlyFound(
      await Promise.all(
        keys.map(async (key) => {
          const { actingFor, parts } = partsOf(key);
          const debit = await context.upstream.directDebit.directDebit(parts[0] ?? '', actingFor);
          return debit ? acting<DirectDebit>(actingFor)(debit) : null;
        }),
      ),
    )),
  sort: (d) => keyOf(d.actingFor, d.transactionId),
});

DirectDebitNode.implement({
  authScopes: { permission: 'direct-debit:read' },
  description: 'A direct debit payout (Document 3, 2.6): money a creditor collected from a global account.',
  fields: (t) => ({
    upstreamId: t.exposeString('transactionId', { nullable: false, description: "The bank's transaction id." }),
    status: t.expose('status', { type: DirectDebitStatus, nullable: false, description: 'Where it stands.' }),
    amount: t.field({ type: Money, nullable: false, description: 'Amount collected.', resolve: (d) => money(d.amount, d.currency) }),
    debtorName: t.exposeString('debtorName', { description: 'Who paid.' }),
    statementRef: t.exposeString('statementRef', { description: 'Reference on the statement.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false, description: 'When it was created (T of the dispute windows).' }),
    mandateUpstreamId: t.exposeString('mandateId', { description: "The bank's id of the mandate it was collected under (mandate_id)." }),
    mandate: t.field({
      type: MandateNode,
      description:
        'The mandate it was collected under. Mandates are read per global account and exist for UK GBP collections, so a payout elsewhere may name one the bank does not find: that is an error on this field (NOT_FOUND), and the id stays in `mandateUpstreamId`.',
      resolve: (d, _args, context) =>
        readLink(MandateNode, d.mandateId ? keyOf(d.actingFor, d.globalAccountId, d.mandateId) : null, d.mandateId, context),
    }),
    accountUpstreamId: t.exposeString('globalAccountId', { nullable: false, description: "The bank's id of the global account collected from (global_account_id)." }),
    account: t.field({
      type: GlobalAccountNode,
      description: 'The account collected from. An error (NOT_FOUND) when the bank does not find the record it names; the id is in `accountUpstreamId` either way.',
      resolve: (d, _args, context) => readLink(GlobalAccountNode, keyOf(d.actingFor, d.globalAccountId), d.globalAccountId, context),
    }),
    disputeWindow: t.field({
      type: DisputeWindowType,
      description: 'Until when it can be disputed, given its account\u2019s location and the payer type; null where the document has no rule.',
      args: { payerType: t.arg({ type: PayerType, defaultValue: 'BUSINESS', description: 'Who the payer is (default BUSINESS).' }) },
      resolve: async (d, args, context) => {
        const account = await GlobalAccountNode.getDataloader(context).load(keyOf(d.actingFor, d.globalAccountId));
        return account ? disputeWindow(account, d.createdAt, args.payerType ?? 'BUSINESS') : null;
      },
    }),
  }),
});

// --- Queries ------------------------------------------------------------------------------------

const onBehalfOfArg = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) =>
  t.arg.string({ description: "Act for this connected account (its open ID, sent as x-on-behalf-of); the platform's own accounts without it.", validate: bankIdRule.nullish() });

builder.queryFields((t) => ({
  globalAccount: t.field({
    authScopes: { permission: 'direct-debit:read' },
    type: GlobalAccountNode,
    description: "A global account by the bank's id; null when there is none (or it is not visible to whom you act for).",
    args: { id: t.arg.string({ required: true, description: "The bank's global account id.", validate: bankIdRule }), onBehalfOf: onBehalfOfArg(t) },
    resolve: (_root, args) => keyOf(args.onBehalfOf ?? null, args.id),
  }),
  directDebit: t.field({
    authScopes: { permission: 'direct-debit:read' },
    type: DirectDebitNode,
    description: "A direct debit payout by the bank's transaction id; null when there is none.",
    args: { id: t.arg.string({ required: true, description: "The bank's transaction id.", validate: bankIdRule }), onBehalfOf: onBehalfOfArg(t) },
    resolve: (_root, args) => keyOf(args.onBehalfOf ?? null, args.id),
  }),
  directDebits: t.connection(
    {
      authScopes: { permission: 'direct-debit:read' },
      type: DirectDebitNode,
      description: `Direct debit payouts across all global accounts. Without a date range the bank answers the 30 days before today. ${BANK_ORDER}`,
      args: {
        dateRange: t.arg({ type: OpenDateRangeInput, description: 'Only payouts created on these days. Either end may be left out: without `from`, the bank answers the 30 days before `to` (before today without either, Document 3, section 8); with `from` alone, from that day on.', validate: windowOrderRule }),
        onBehalfOf: onBehalfOfArg(t),
      },
      resolve: (_root, args, context) =>
        pagedConnection(args, async (slice) => {
          const actingFor = args.onBehalfOf ?? null;
          const result = await context.upstream.directDebit.directDebits({ ...slice, fromDate: args.dateRange?.from, toDate: args.dateRange?.to }, actingFor);
          return result.items.map(acting<DirectDebit>(actingFor));
        }),
    },
    { name: 'DirectDebitConnection' },
    { name: 'DirectDebitEdge' },
  ),
}));
