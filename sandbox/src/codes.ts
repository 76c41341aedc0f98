import { z } from 'zod';

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO-4217 code in capitals');
export const countryCode = z.string().regex(/^[A-Z]{2}$/, 'must be a 2-letter country code in capitals');

/** How money leaves an account (Document 1): accounts, beneficiaries and payouts name it alike. */
export const TRANSFER_METHODS = ['LOCAL', 'SWIFT'] as const;
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

/** The only account type Create Account accepts (Document 1, section 4.2); global accounts are of it too. */
export const VIRTUAL_ACCOUNT = 'virtual_account';
