import { z } from 'zod';
import { builder } from '../builder.ts';

/** What many mutations' inputs share: the idempotency key, and text that must say something. */

const IDEMPOTENCY_KEY_TEXT =
  'Makes the write safe to repeat: sent upstream as x-request-id, so a retried request with the same key and input is applied once. Any unique string up to 128 characters, e.g. a UUID.';

/** The optional idempotencyKey argument; `description` where an API takes no x-request-id. */
export const idempotencyKeyArg = (description: string = IDEMPOTENCY_KEY_TEXT) =>
  builder.args((t) => ({
    idempotencyKey: t.string({
      description,
      validate: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
    }),
  }));

/** Text that must say something. */
export const notBlank = z.string().trim().min(1, 'must not be blank');
