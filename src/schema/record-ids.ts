import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { z } from 'zod';
import { bankIdProblem } from '../upstream/ids.ts';
import { validationError } from './mutation-errors.ts';

/** How a caller names a record: its global ID or the bank's own id, checked before any call. */

/** Adds the bank id rule's issue for each part of `id` that breaks it (src/upstream/ids.ts). */
function checkBankIdParts(parts: string[], ctx: z.RefinementCtx): void {
  const problem = parts.map(bankIdProblem).find(Boolean);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

/** The bank's own id as an argument: checked before any call, the error naming the field. */
export const bankIdRule = z.string().superRefine((id, ctx) => checkBankIdParts([id], ctx));

/**
 * A root read's id argument: a global ID of `typename` or the bank's own id (see upstreamIdFrom);
 * the bank id it carries must be one (src/upstream/ids.ts), else the argument is named in the error.
 */
export function globalIdRule(typename: string) {
  return z.string().superRefine((value, ctx) => checkBankIdParts([upstreamIdFrom(value, typename)], ctx));
}

/**
 * The key a mutation input names, given as the record's global ID (from `<Type>.id`) or as the
 * bank's own id, as root reads take them. Checked before any call: a global ID of another type or
 * an id that breaks the bank id rule is a ValidationError naming the input field, inside the
 * mutation's result. A composite key (`actingFor~part~part`, direct debit records) has `parts` bank
 * ids; a bare bank id stands for one part, acting for no connected account.
 */
export function bankIdIn(value: string, path: string[], typename: string, parts?: number): string {
  const decoded = decodedGlobalId(value);
  if (decoded !== null && decoded.typename !== typename) {
    throw validationError(path, `is the global ID of ${withArticle(decoded.typename)}, not of ${withArticle(typename)}: give its global ID or the bank's own id`);
  }
  const key = decoded?.id ?? (parts === undefined ? value : `~${value}`);
  if (parts === undefined) {
    const problem = bankIdProblem(key);
    if (problem) throw validationError(path, problem);
    return key;
  }
  const [actingFor = '', ...ids] = key.split('~');
  if (ids.length !== parts) {
    throw validationError(path, `needs the ${typename}'s global ID (\`${typename}.id\`): it carries the ${parts - 1} other id(s) the bank needs with it`);
  }
  const problem = [...(actingFor ? [actingFor] : []), ...ids].map(bankIdProblem).find(Boolean);
  if (problem) throw validationError(path, problem);
  return key;
}

const withArticle = (name: string): string => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;

/** `{ typename, id }` when `value` is a global ID this gateway made (it round-trips), else null. */
function decodedGlobalId(value: string): { typename: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(value);
    return /^[A-Z][A-Za-z0-9]*$/.test(decoded.typename) && encodeGlobalID(decoded.typename, decoded.id) === value ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * Reads by id take a global ID or the bank's own id, so links and support tickets both work:
 * anything that is not a global ID of `typename` is taken as the bank's id.
 */
export function upstreamIdFrom(id: string, typename: string): string {
  const decoded = decodedGlobalId(id);
  return decoded !== null && decoded.typename === typename ? decoded.id : id;
}

/**
 * The description of an input field naming a record of `typename` (a plain `ID`, read by bankIdIn):
 * not a Relay globalID field, so a bank id or a malformed value is the mutation's typed
 * ValidationError rather than a top-level "Invalid global ID".
 */
export function recordIdDescription(typename: string, what: string): string {
  return `${what}: its global ID (\`${typename}.id\`) or the bank's own id.`;
}
