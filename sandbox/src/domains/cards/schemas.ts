import { z } from 'zod';
import { parseSecondTime } from '../../time.ts';
import { currencyCode } from '../../codes.ts';
import { addressSchema } from '../../address.ts';
import { minorUnitsProblem } from '../../amounts.ts';
import { luhnValid } from './card-number.ts';
import { CARD_STATUSES, CARD_TYPES, LIMIT_INTERVALS, TRANSACTION_COUNTS } from './types.ts';

/** Request bodies of Document 2, section 4.1, field by field. */

const text = z.string().min(1);
const positiveAmount = z.number().positive();
const pin = z.string().regex(/^\d{6}$/, 'must be 6 digits');

const createLimits = z.array(z.object({ amount: positiveAmount, interval: z.enum(LIMIT_INTERVALS) }));

export const createCardBody = z
  .object({
    card_issuance_action: z.enum(['NEW', 'REPLACEMENT']),
    card_type: z.enum(CARD_TYPES),
    card_holder_id: text,
    created_by: text,
    request_id: text,
    program: z.object({ purpose: z.literal('COMMERCIAL') }),
    authorization_controls: z.object({
      allowed_transaction_count: z.enum(TRANSACTION_COUNTS),
      transaction_limits: z.object({ currency: currencyCode, limits: createLimits }),
    }),
    // "Conditional, physical cards only": ignored on a virtual card.
    postal_address: addressSchema.nullish(),
    is_personalized: z.boolean(),
  })
  .superRefine((value, ctx) => {
    const { currency, limits } = value.authorization_controls.transaction_limits;
    limitRules(limits, currency, ['authorization_controls', 'transaction_limits', 'limits'], ctx);
    if (value.card_type !== 'PHYSICAL') return;
    if (value.postal_address == null)
      ctx.addIssue({ code: 'custom', path: ['postal_address'], message: 'is required for a PHYSICAL card' });
    // The document's own sentence, used as the message.
    if (!value.is_personalized)
      ctx.addIssue({ code: 'custom', path: ['is_personalized'], message: 'Only personalized cards can be physical' });
  });

const isoSecond = z.string().refine((text) => parseSecondTime(text, 'Z') !== null, 'must be a date-time in the form YYYY-MM-DDTHH:mm:ssZ');

const merchantCategory = z.string().regex(/^\d{4}$/, 'must be a 4-digit merchant category code');

/**
 * Omitted fields stay unchanged. transaction_limits, when given, replaces the card's limits
 * (an interval left out is removed); within authorization_controls each member is its own
 * field, and null clears active_from or active_to.
 */
export const updateCardBody = z
  .object({
    card_status: z.enum(CARD_STATUSES).optional(),
    currency: currencyCode.optional(),
    transaction_limits: z.array(z.object({ type: z.enum(LIMIT_INTERVALS), value: positiveAmount })).optional(),
    authorization_controls: z
      .object({
        active_from: isoSecond.nullish(),
        active_to: isoSecond.nullish(),
        allowed_currencies: z.array(currencyCode).optional(),
        allowed_merchant_categories: z.array(merchantCategory).optional(),
      })
      .optional(),
    updated_by: text,
  })
  .superRefine((value, ctx) => {
    const limits = value.transaction_limits?.map((limit) => ({ amount: limit.value, interval: limit.type }));
    // Decimals are checked in the limit currency once it is known (update.ts).
    if (limits !== undefined) limitRules(limits, null, ['transaction_limits'], ctx);
  });

export const activateCardBody = z.object({ activation_code: z.string().nullish(), pin: pin.nullish() });

export const pinBody = z.object({ pin });

export const rechargeBody = z.object({ amount: positiveAmount });

/** The creator is written createdBy in the document's parameter list, created_by in its sample. */
export const assignCardBody = z
  .object({
    cardholder_id: text,
    card_number: z
      .string()
      .regex(/^\d{13,19}$/, 'must be 13 to 19 digits')
      .pipe(z.string().refine(luhnValid, 'must pass the Luhn check')),
    card_currency: currencyCode,
    card_mode: z.literal('SINGLE'),
    created_by: text.optional(),
    createdBy: text.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.created_by === undefined && value.createdBy === undefined) {
      ctx.addIssue({ code: 'custom', path: ['created_by'], message: 'is required' });
    }
  });

type LimitInput = { amount: number; interval: string };

/** One limit per interval; with a currency known, amounts in its minor units. */
function limitRules(limits: readonly LimitInput[], currency: string | null, path: (string | number)[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  limits.forEach((limit, index) => {
    if (seen.has(limit.interval))
      ctx.addIssue({ code: 'custom', path: [...path, index], message: `repeats the interval ${limit.interval}` });
    seen.add(limit.interval);
    const problem = currency === null ? null : minorUnitsProblem(limit.amount, currency);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: [...path, index, 'amount'], message: problem });
  });
}

export type CreateCardInput = z.output<typeof createCardBody>;
export type UpdateCardInput = z.output<typeof updateCardBody>;
