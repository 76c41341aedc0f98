import { z } from 'zod';
import { countryCode } from './codes.ts';

// Document 2's address object, shared by cardholders (their address and postal address) and
// cards (a card's postal_address): the core's, so neither domain reaches into the other.

/** The address object of Document 2 (also a card's postal_address); line2 is optional. */
export interface Address {
  city: string;
  country: string;
  line1: string;
  line2: string | null;
  state: string;
  postcode: string;
}

const text = z.string().min(1);

/** The address in a request body. */
export const addressSchema = z.object({
  city: text,
  country: countryCode,
  line1: text,
  line2: z.string().nullish(),
  state: text,
  postcode: text,
});

export type AddressInput = z.output<typeof addressSchema>;

/** Validated input turned into the stored address: every member present, null where not given. */
export function toAddress(input: AddressInput): Address {
  const { city, country, line1, line2, state, postcode } = input;
  return { city, country, line1, line2: line2 ?? null, state, postcode };
}
