import { z } from 'zod';
import { controlRoute, json } from '../control.ts';
import type { Route } from '../routes.ts';
import { validate } from '../validation.ts';
import { EVENT_NAMES } from './catalogue.ts';
import { mergeData, resourceIdOf } from './defaults.ts';

const text = z.string().trim().min(1);

const eventBody = z.object({
  name: z.enum(EVENT_NAMES),
  data: z.record(z.string(), z.unknown()).optional(),
  resource_id: text.optional(),
});

/**
 * The control API of events and their delivery: the attempts log (redelivery is the webhooks domain's), the events
 * emitted so far, and events of happenings the sandbox does not simulate (an account
 * approved or suspended, an RFI raised, a conversion cancelled...). An event about a record the
 * sandbox keeps must name one (defaults.ts); sending it changes no record.
 */
export const eventControlRoutes: readonly Route[] = [
  controlRoute('GET', '/deliveries', ({ runtime }) => json(runtime.deliveries.attempts())),
  controlRoute('DELETE', '/deliveries', ({ runtime }) => {
    runtime.deliveries.clearAttempts();
    return json({ ok: true });
  }),
  controlRoute('GET', '/events', ({ runtime }) => json(runtime.store.events.list())),
  controlRoute('POST', '/events', ({ body, runtime }) => {
    const input = validate(eventBody, body);
    const { store } = runtime;
    const at = runtime.clock.now().getTime();
    const defaults = runtime.eventDefault(input.name);
    const id = resourceIdOf(store, defaults, input.name, input.resource_id, runtime.credentials.userId);
    const data = mergeData(defaults.data({ store, id, at }) as Record<string, unknown>, input.data ?? {});
    return json({ eventId: store.events.emitAny(input.name, data, id, at).id });
  }),
];
