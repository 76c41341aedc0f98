import { z } from 'zod';
import { EVENT_NAMES } from '../../events/catalogue.ts';
import { SUBSCRIPTION_TYPES } from './types.ts';

const text = z.string().trim().min(1);

const isHttpUrl = (value: string): boolean => /^https?:$/.test(URL.parse(value)?.protocol ?? '');

// An absent name falls through to the shared "is required".
const eventName = z.enum(EVENT_NAMES, {
  error: (issue) => (issue.input === undefined ? undefined : 'must be an event listed by Get All Webhooks'),
});

const owner = { agent_code: text, subagent_code: text, program_code: text, company_code: text };

const identity = { event_name: eventName, ...owner };

// In the documented order, so messages list the fields as the document does.
const subscription = { event_name: eventName, subscription_type: z.enum(SUBSCRIPTION_TYPES), ...owner };

/**
 * The optional fields: null clears a stored value on update, leaving one out keeps it. The
 * key is spelled x-api-key in the field table and x_api_key in samples: both are accepted.
 */
const delivery = {
  webhook_url: text.refine(isHttpUrl, 'must be an http or https URL').nullish(),
  x_api_key: text.nullish(),
  'x-api-key': text.nullish(),
  sender_email: text.refine((value) => value.includes('@'), 'must contain @').nullish(),
};

type Optional = string | null | undefined;

/** A webhook needs somewhere to go and the key to send; a notification needs neither. */
function webhookFields(
  value: { subscription_type: string; webhook_url?: Optional; x_api_key?: Optional; 'x-api-key'?: Optional },
  ctx: z.RefinementCtx,
): void {
  if (value.subscription_type !== 'w') return;
  if (value.webhook_url == null)
    ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: 'is required when subscription_type is w' });
  if ((value.x_api_key ?? value['x-api-key']) == null) {
    ctx.addIssue({ code: 'custom', path: ['x_api_key'], message: 'is required when subscription_type is w' });
  }
}

/** Endpoint 47. updated_by is listed as optional by the change history: accepted, not used. */
export const subscribeBody = z
  .object({ ...subscription, created_by: text, ...delivery, updated_by: text.nullish() })
  .superRefine(webhookFields);

/** Endpoint 49. created_by may come along (the change history lists it) and is not used. */
export const updateBody = z
  .object({ ...subscription, updated_by: text, ...delivery, created_by: text.nullish() })
  .superRefine(webhookFields);

/** Endpoint 50: the identity; the further fields the change history lists are ignored. */
export const deleteBody = z.object(identity);

/** Endpoint 48's body. */
export const ownerBody = z.object({ agent_code: text, subagent_code: text });

export const programQuery = z.object({ program_code: text });

export type DeliveryInput = z.output<typeof updateBody>;

/** The key as given, whichever spelling; undefined when neither was sent. */
export function keyOf(input: Pick<DeliveryInput, 'x_api_key' | 'x-api-key'>): string | null | undefined {
  const given = [input.x_api_key, input['x-api-key']];
  return given.find((value) => typeof value === 'string') ?? (given.includes(null) ? null : undefined);
}
