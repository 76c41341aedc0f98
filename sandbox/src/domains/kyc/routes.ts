import { headerValue } from '../../headers.ts';
import { ok } from '../../http.ts';
import { assertSupported, type Operation } from '../../program.ts';
import type { RequestContext, Route } from '../../routes.ts';
import { kycOf } from './records.ts';
import type { KycRecord } from './types.ts';
import { kycStatusView, rfiView } from './wire.ts';

const BASE = '/issuing/api/v1/kyc';

/** The KYC record of the cardholder named by x-cardholderHash-id, once the program allows the call. */
function kycFor(ctx: RequestContext, operation: Operation): KycRecord {
  assertSupported(ctx.runtime.program.current(), operation);
  const id = headerValue(ctx.headers, 'x-cardholderHash-id') ?? '';
  return kycOf(ctx.runtime.store, ctx.runtime.store.services.findCardholder(ctx.runtime.store, id).id);
}

/** Endpoint 41, GET /issuing/api/v1/kyc. */
const kycStatus: Route = {
  method: 'GET',
  path: BASE,
  headers: 'kyc',
  handler: (ctx) =>
    ok([kycStatusView(ctx.runtime.store, kycFor(ctx, 'Get Cardholder KYC'), 'submit')], 'KYC status retrieved successfully'),
};

/** Endpoint 42, GET /issuing/api/v1/kyc/rfi. */
const rfiDetails: Route = {
  method: 'GET',
  path: `${BASE}/rfi`,
  headers: 'kyc',
  handler: (ctx) => ok([rfiView(kycFor(ctx, 'Get RFI Details'))], 'RFI details retrieved successfully'),
};

/** Endpoint 43, GET /issuing/api/v1/kyc/rfi/respond: the link to answer the RFI. */
const rfiRespond: Route = {
  method: 'GET',
  path: `${BASE}/rfi/respond`,
  headers: 'kyc',
  handler: (ctx) =>
    ok([kycStatusView(ctx.runtime.store, kycFor(ctx, 'Respond to RFI'), 'rfi')], 'RFI response link generated successfully'),
};

export const kycRoutes: readonly Route[] = [kycStatus, rfiDetails, rfiRespond];
