import { z } from 'zod';
import { dayParam } from '../../date-range.ts';
import { addressSchema } from '../../address.ts';
import { countryCode } from '../../codes.ts';
import { CARDHOLDER_TYPES } from './types.ts';

/** Request bodies of Document 2, section 4.2, and the address object cards share. */

const text = z.string().min(1);

// "English characters only": letters, with spaces, hyphens and apostrophes between them.
const nameText = z.string().regex(/^[A-Za-z]+(?:[ '-]+[A-Za-z]+)*$/, 'must contain only English letters, spaces, hyphens and apostrophes');

const nameSchema = z.object({
  title: nameText.nullish(),
  first_name: nameText,
  middle_name: nameText.nullish(),
  last_name: nameText,
});

const optionalText = z.string().nullish();

const employerSchema = z.object({
  business_identifiers: z.array(z.object({ country_code: optionalText, number: optionalText, type: optionalText })).nullish(),
  business_name: optionalText,
});

/** Given whole: date_of_birth, name and address are required whenever individual is sent. */
const individualSchema = z.object({
  date_of_birth: dayParam,
  name: nameSchema,
  address: addressSchema,
  employers: z.array(employerSchema).nullish(),
});

const email = z.string().refine((value) => /^[^\s@]+@[^\s@]+$/.test(value), 'must be an e-mail address containing @');
const mobileNumber = z.string().regex(/^\+?[0-9]{7,15}$/, 'must be 7 to 15 digits, optionally after a +');

export const createCardholderBody = z
  .object({
    email,
    mobile_number: mobileNumber,
    country_code: countryCode.nullish(),
    individual: individualSchema.nullish(),
    postal_address: addressSchema.nullish(),
    type: z.enum(CARDHOLDER_TYPES),
    created_by: text,
  })
  .superRefine((value, ctx) => {
    if (value.type === 'INDIVIDUAL' && value.individual == null) {
      ctx.addIssue({ code: 'custom', path: ['individual'], message: 'is required for an INDIVIDUAL cardholder' });
    }
    if (value.type === 'DELEGATE' && value.individual != null) {
      ctx.addIssue({ code: 'custom', path: ['individual'], message: 'must not be given for a DELEGATE cardholder' });
    }
  });

/** Only given fields change; null clears an optional one (country_code, postal_address). */
export const updateCardholderBody = z.object({
  mobile_number: mobileNumber.optional(),
  country_code: countryCode.nullish(),
  individual: individualSchema.optional(),
  postal_address: addressSchema.nullish(),
  updated_by: text,
});

export type IndividualInput = z.output<typeof individualSchema>;
