import { z } from 'zod';
import { badRequest, found, ok } from '../../http.ts';
import type { Route } from '../../routes.ts';
import type { SandboxStore } from '../../store.ts';
import { formatApiTime } from '../../time.ts';
import { validate } from '../../validation.ts';
import { createPayout } from './create.ts';
import { cancelPayout } from './lifecycle.ts';
import type { PayoutRecord } from './types.ts';

const cancelBody = z
  .object({ id: z.string().min(1).nullish(), systemReferenceNumber: z.string().min(1).nullish() })
  .superRefine((value, ctx) => {
    if ((value.id == null) === (value.systemReferenceNumber == null)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'exactly one of id and systemReferenceNumber must be given' });
    }
  });

const BASE = '/svc/api/v1/transfer';

function findPayout(store: SandboxStore, id: string): PayoutRecord {
  return found(store.payouts.get(id), 'Payout', id);
}

function findByReference(store: SandboxStore, reference: string): PayoutRecord {
  return found(
    [...store.payouts.values()].find((payout) => payout.systemReferenceNumber === reference),
    'Payout',
    reference,
  );
}

/** Endpoint 14, POST /svc/api/v1/transfer/payout. */
const createPayoutRoute: Route = {
  method: 'POST',
  path: `${BASE}/payout`,
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const payout = createPayout(body, runtime);
    return ok([{ id: payout.id, systemReferenceNumber: payout.systemReferenceNumber }], 'Payout created successfully');
  },
};

/** Endpoint 15, GET /svc/api/v1/transfer/payout/{PayoutID}: the status only. */
const payoutStatus: Route = {
  method: 'GET',
  path: `${BASE}/payout/:id`,
  headers: 'standard',
  handler: ({ params, runtime }) => {
    const payout = findPayout(runtime.store, params.id ?? '');
    return ok([{ id: payout.id, status: payout.status }], 'Payout retrieved successfully');
  },
};

/** Endpoint 16, PATCH /svc/api/v1/transfer/cancelpayout: by id or by systemReferenceNumber. */
const cancelPayoutRoute: Route = {
  method: 'PATCH',
  path: `${BASE}/cancelpayout`,
  headers: 'standard',
  handler: ({ body, runtime }) => {
    const { id, systemReferenceNumber } = validate(cancelBody, body);
    const { store } = runtime;
    const payout = id != null ? findPayout(store, id) : findByReference(store, systemReferenceNumber ?? '');
    if (payout.status !== 'PENDING') throw badRequest(`Only pending payouts can be cancelled: payout ${payout.id} is ${payout.status}`);
    cancelPayout(store, payout);
    return ok({}, 'Payout cancelled successfully');
  },
};

/** Endpoint 17, GET /svc/api/v1/transfer/upcomingpayouts: PENDING payouts, soonest first. */
const upcomingPayouts: Route = {
  method: 'GET',
  path: `${BASE}/upcomingpayouts`,
  headers: 'standard',
  handler: ({ runtime }) => {
    const pending = [...runtime.store.payouts.values()]
      .filter((payout) => payout.status === 'PENDING')
      .sort((a, b) => a.scheduledPayoutDate.localeCompare(b.scheduledPayoutDate) || a.createdAt - b.createdAt);
    if (pending.length === 0) return ok([], 'No upcoming payouts found');
    return ok(pending.map(upcomingItem), 'Upcoming payouts retrieved successfully');
  },
};

/** The document shows no fields for these items; the sandbox lists the payout as created. */
function upcomingItem(payout: PayoutRecord) {
  return {
    id: payout.id,
    systemReferenceNumber: payout.systemReferenceNumber,
    status: payout.status,
    beneficiaryId: payout.beneficiaryId,
    quoteId: payout.quoteId,
    sourceAmount: payout.sourceAmount,
    sourceCurrencycode: payout.sourceCurrency,
    destinationAmount: payout.destinationAmount,
    destinationCurrencycode: payout.destinationCurrency,
    destinationCountry: payout.destinationCountry,
    feeType: payout.feeType,
    transferMethod: payout.transferMethod,
    reference: payout.reference,
    sourceOfFunds: payout.sourceOfFunds,
    scheduledPayoutDate: payout.scheduledPayoutDate,
    createdTime: formatApiTime(payout.createdAt),
  };
}

export const payoutRoutes: readonly Route[] = [createPayoutRoute, payoutStatus, cancelPayoutRoute, upcomingPayouts];
