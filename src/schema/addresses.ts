import { builder } from '../builder.ts';
import type { Address } from '../upstream/models.ts';
import { notBlank } from './mutation-inputs.ts';

/** Document 2's address object, as read (every member may be missing) and as written. */
export const AddressType = builder.objectRef<Address>('Address').implement({
  description: 'A postal address (Document 2\'s address object).',
  fields: (t) => ({
    line1: t.exposeString('line1', { description: 'First line: street and number.' }),
    line2: t.exposeString('line2', { description: 'Second line, if any.' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postcode: t.exposeString('postcode', { description: 'Postal code.' }),
    country: t.expose('country', { type: 'CountryCode', description: 'Country.' }),
  }),
});

export const AddressInput = builder.inputType('AddressInput', {
  description: 'A postal address; given as a whole, so every member but line2 is required.',
  fields: (t) => ({
    line1: t.string({ required: true, description: 'First line: street and number.', validate: notBlank }),
    line2: t.string({ description: 'Second line.' }),
    city: t.string({ required: true, description: 'City.', validate: notBlank }),
    state: t.string({ required: true, description: 'State or region.', validate: notBlank }),
    postcode: t.string({ required: true, description: 'Postal code.', validate: notBlank }),
    country: t.field({ type: 'CountryCode', required: true, description: 'Country.' }),
  }),
});
