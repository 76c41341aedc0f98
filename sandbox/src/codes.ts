import { z } from 'zod';

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO-4217 code in capitals');
export const countryCode = z.string().regex(/^[A-Z]{2}$/, 'must be a 2-letter country code in capitals');
