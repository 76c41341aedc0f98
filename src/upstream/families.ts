import type { Endpoint, HeaderSet } from './endpoint.ts';

/**
 * Upstream families: the parts of the bank that fail (and rate-limit) independently, told apart by
 * the header set their endpoints take, which follows the documents' own split.
 * - banking: Documents 1 and 2 under the standard headers (accounts, balances, beneficiaries, FX,
 *   payouts, cards, cardholders): without it the gateway is of no use (/readyz says 503).
 * - auth: the login endpoint; its failure stops every call that needs a new token.
 * - issuing: wallets and KYC (Document 2's x-client-id family).
 * - webhooks: Document 3's webhook management.
 * - direct-debit: Document 3's direct debit family, on its own base address.
 */
export const FAMILIES = ['banking', 'auth', 'issuing', 'webhooks', 'direct-debit'] as const;
export type UpstreamFamily = (typeof FAMILIES)[number];

const FAMILY_OF: Record<HeaderSet, UpstreamFamily> = {
  standard: 'banking',
  login: 'auth',
  issuing: 'issuing',
  webhook: 'webhooks',
  'direct-debit': 'direct-debit',
};

export function familyOf(ep: Endpoint<unknown>): UpstreamFamily {
  return FAMILY_OF[ep.headers];
}
