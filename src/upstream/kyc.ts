import { z } from 'zod';
import type { BoundCall } from './bound-call.ts';
import { records } from './cache-policy.ts';
import { endpoint } from './endpoint.ts';
import { camelObject } from './camel-case.ts';
import { optionalText, orEmpty, orEmptyObject, single } from './models.ts';

/**
 * Document 2, sections 2.7, 2.8 and 4.4: a cardholder's KYC status and requests for information
 * (issuing family: the `issuing` header set with x-cardholderHash-id naming the cardholder).
 */

/** The upstream writes "nothing" as an empty string (kycLink when complete, no decline reason). */
const textOrNull = optionalText.transform((text) => (text === null || text.trim() === '' ? null : text));

/** The bank's own camelCase. */
const kycStatusModel = z.object({
  kycStatus: z.string(),
  kycLink: textOrNull,
  documentType: optionalText,
  complianceStatus: optionalText,
  email: optionalText,
});
export type KycStatus = z.output<typeof kycStatusModel>;

const kycRfiModel = camelObject({
  services_declined_codes: orEmptyObject(z.object({ address: orEmpty(z.string()), document: orEmpty(z.string()) })),
  declined_reason: textOrNull,
});
export type KycRfi = z.output<typeof kycRfiModel>;

const KYC = '/issuing/api/v1/kyc';
const kycReads = records('kyc');

export const kycEndpoints = {
  status: endpoint({ method: 'GET', path: KYC, headers: 'issuing', data: single(kycStatusModel), cache: kycReads }),
  rfi: endpoint({ method: 'GET', path: `${KYC}/rfi`, headers: 'issuing', data: single(kycRfiModel), cache: kycReads }),
  /** A GET that answers the RFI (Document 2, 4.4): a write, never kept. */
  rfiRespond: endpoint({
    method: 'GET',
    path: `${KYC}/rfi/respond`,
    headers: 'issuing',
    data: single(kycStatusModel),
    changes: ['kyc', 'cardholders'],
  }),
};

export function kycApi(call: BoundCall) {
  const cardholder = (cardholderId: string) => ({ headers: { 'x-cardholderHash-id': cardholderId } });
  return {
    status: (cardholderId: string) => call(kycEndpoints.status, cardholder(cardholderId)),
    rfi: (cardholderId: string) => call(kycEndpoints.rfi, cardholder(cardholderId)),
    /** The link for answering an RFI (the kycLink of the answer); null if the bank gives none. */
    rfiResponseLink: async (cardholderId: string) => (await call(kycEndpoints.rfiRespond, cardholder(cardholderId))).kycLink,
  };
}
