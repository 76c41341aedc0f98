import { z } from 'zod';
import { orNullIfNotFound, type BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { endpoint } from './endpoint.ts';
import { anyCaseEnum, countryCode, currencyCode, decimal, orNull, orWhenAbsent, single, upstreamDate, upstreamDateTime } from './models.ts';

/**
 * Document 1, sections 2.9 and 4.4: payouts. The documents name PENDING (cancellable) and
 * PROCESSING; COMPLETED, CANCELLED and FAILED are the sandbox's documented choice (docs/sandbox.md).
 */
export const PAYOUT_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'CANCELLED', 'FAILED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export const FEE_TYPES = ['OUR', 'SHA'] as const;
type FeeType = (typeof FEE_TYPES)[number];

const status = anyCaseEnum(PAYOUT_STATUSES);

/**
 * Everything the gateway may know of a payout besides its id, in the bank's own camelCase (the create
 * body's and the upcoming list's); each endpoint fills what it sends, the rest is null. Fields of an
 * upcoming-payout item are not documented; these are the sandbox's (docs/sandbox.md).
 */
const payoutFields = {
  systemReferenceNumber: orNull(z.string()),
  status: orNull(status),
  beneficiaryId: orNull(z.string()),
  quoteId: orNull(z.string()),
  sourceAmount: orNull(decimal),
  sourceCurrencycode: orNull(currencyCode),
  destinationAmount: orNull(decimal),
  destinationCurrencycode: orNull(currencyCode),
  destinationCountry: orNull(countryCode),
  feeType: orNull(z.enum(FEE_TYPES)),
  transferMethod: orNull(z.enum(['LOCAL', 'SWIFT'])),
  reference: orNull(z.string()),
  sourceOfFunds: orNull(z.string()),
  scheduledPayoutDate: orNull(upstreamDate),
  createdTime: orNull(upstreamDateTime),
};

/** What an answer that names none of the fields tells: every one null. */
const NOTHING_SENT = z.object(payoutFields).parse({});
export type Payout = typeof NOTHING_SENT & { id: string };

const created = z
  .object({ id: z.string().min(1), systemReferenceNumber: z.string().min(1) })
  .transform((p): Payout => ({ ...NOTHING_SENT, ...p }));

const statusOnly = z.object({ id: z.string().min(1), status }).transform((p): Payout => ({ ...NOTHING_SENT, ...p }));

// An upcoming payout the bank gives no status is pending: not sent yet. A rule of the field, not a
// transform of the whole record, so the record is read lazily (lazy-model.ts).
const upcoming = z.object({ id: z.string().min(1), ...payoutFields, status: orWhenAbsent(status, 'PENDING') });

const payoutReads = records('payouts');
/** A payout's money leaves the account, or comes back. */
const PAYOUT_WRITE = ['payouts', 'accounts'] as const;

export const payoutEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/{svc}/api/v1/transfer/payout',
    headers: 'standard',
    data: single(created),
    changes: PAYOUT_WRITE,
  }),
  status: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/payout/{id}',
    headers: 'standard',
    data: single(statusOnly),
    cache: payoutReads,
  }),
  cancel: endpoint({
    method: 'PATCH',
    path: '/{svc}/api/v1/transfer/cancelpayout',
    headers: 'standard',
    data: z.looseObject({}),
    changes: PAYOUT_WRITE,
  }),
  upcoming: endpoint({
    method: 'GET',
    path: '/{svc}/api/v1/transfer/upcomingpayouts',
    headers: 'standard',
    data: z.array(upcoming),
    cache: payoutReads,
  }),
};

export interface PayoutRequest {
  beneficiaryId: string;
  quoteId: string;
  sourceCurrency: string;
  destinationCurrency: string;
  sourceAmount?: string | null | undefined;
  destinationAmount?: string | null | undefined;
  destinationCountry: string;
  feeType: FeeType;
  transferMethod: 'LOCAL' | 'SWIFT';
  reference: string;
  sourceOfFunds: string;
  scheduledDate: string;
}

export function payoutsApi(call: BoundCall) {
  return {
    create: async (request: PayoutRequest, idempotencyKey?: string | null): Promise<Payout> => {
      const payout = await call(payoutEndpoints.create, {
        idempotencyKey: idempotencyKey ?? undefined,
        body: {
          beneficiaryId: request.beneficiaryId,
          sourceAmount: request.sourceAmount == null ? null : Number(request.sourceAmount),
          sourceCurrencycode: request.sourceCurrency,
          destinationAmount: request.destinationAmount == null ? null : Number(request.destinationAmount),
          destinationCurrencycode: request.destinationCurrency,
          destinationCountry: request.destinationCountry,
          feeType: request.feeType,
          quoteId: request.quoteId,
          reference: request.reference,
          sourceOfFunds: request.sourceOfFunds,
          transferMethod: request.transferMethod,
          scheduledPayoutDate: request.scheduledDate,
        },
      });
      // What we sent is what the payout is: keep it, so the result can link beneficiary and quote.
      return {
        ...payout,
        beneficiaryId: request.beneficiaryId,
        quoteId: request.quoteId,
        sourceAmount: request.sourceAmount ?? null,
        sourceCurrencycode: request.sourceCurrency,
        destinationAmount: request.destinationAmount ?? null,
        destinationCurrencycode: request.destinationCurrency,
        destinationCountry: request.destinationCountry,
        feeType: request.feeType,
        transferMethod: request.transferMethod,
        reference: request.reference,
        sourceOfFunds: request.sourceOfFunds,
        scheduledPayoutDate: request.scheduledDate,
      };
    },
    status: (id: string) => orNullIfNotFound(call(payoutEndpoints.status, { params: { id } })),
    cancel: (target: { id: string } | { systemReferenceNumber: string }, idempotencyKey?: string | null) =>
      call(payoutEndpoints.cancel, { body: target, idempotencyKey: idempotencyKey ?? undefined }),
    upcoming: () => call(payoutEndpoints.upcoming),
  };
}
