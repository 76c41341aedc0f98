import { badRequest } from '../../http.ts';
import { parseDay } from '../../time.ts';
import { toAddress } from '../../address.ts';
import type { IndividualInput } from './schemas.ts';
import type { Identification, Individual, PersonName } from './types.ts';

/** Validated input turned into stored fields: every member present, null where not given. */

export function toIndividual(input: IndividualInput, identification: Identification | null, now: number): Individual {
  // A rule of the sandbox: nobody is born in the future.
  if ((parseDay(input.date_of_birth) ?? 0) > now) throw badRequest('individual.date_of_birth must not be in the future');
  const { name } = input;
  return {
    date_of_birth: input.date_of_birth,
    name: { title: name.title ?? null, first_name: name.first_name, middle_name: name.middle_name ?? null, last_name: name.last_name },
    address: toAddress(input.address),
    identification,
    employers: (input.employers ?? []).map((employer) => ({
      business_identifiers: (employer.business_identifiers ?? []).map((identifier) => ({
        country_code: identifier.country_code ?? null,
        number: identifier.number ?? null,
        type: identifier.type ?? null,
      })),
      business_name: employer.business_name ?? null,
    })),
  };
}

/** Whether screening must run again: any part of the name differs (case-insensitively). */
export function nameChanged(before: PersonName, after: PersonName): boolean {
  const key = (name: PersonName): string =>
    [name.title, name.first_name, name.middle_name, name.last_name].map((part) => (part ?? '').toLowerCase()).join('|');
  return key(before) !== key(after);
}
