import { z } from 'zod';
import { controlRoute, json } from '../../control.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { completeKyc, kycOf, rejectKyc } from './records.ts';
import { kycStatusView, rfiView } from './wire.ts';

const rejectBody = z.object({
  reason: z.string().min(1),
  address_codes: z.array(z.string().min(1)).default([]),
  document_codes: z.array(z.string().min(1)).default([]),
});

/** The sandbox stands in for the KYC provider: tests complete or reject a cardholder's eKYC. */
export const kycControlRoutes: readonly Route[] = [
  controlRoute('POST', '/kyc/:cardholderId/complete', ({ params, runtime }) => {
    const record = kycOf(runtime.store, params.cardholderId ?? '');
    completeKyc(record);
    return json({ kyc: kycStatusView(runtime.store, record, 'submit') });
  }),
  controlRoute('POST', '/kyc/:cardholderId/reject', ({ body, params, runtime }) => {
    const input = validate(rejectBody, body);
    const record = kycOf(runtime.store, params.cardholderId ?? '');
    rejectKyc(record, { reason: input.reason, addressCodes: input.address_codes, documentCodes: input.document_codes });
    return json({ kyc: kycStatusView(runtime.store, record, 'submit'), rfi: rfiView(record) });
  }),
];
