import { z } from 'zod';
import { controlRoute, json } from '../control.ts';
import { publishEvent } from '../domains/webhooks/fanout.ts';
import { ApiError } from '../http.ts';
import type { Route } from '../routes.ts';
import { validate } from '../validation.ts';
import { EVENT_NAMES } from './catalogue.ts';
import { defaultData, defaultResourceId, mergeData } from './defaults.ts';

const text = z.string().trim().min(1);

const redeliverBody = z.object({ eventId: text, name: z.enum(EVENT_NAMES).optional() });

const eventBody = z.object({
  name: z.enum(EVENT_NAMES),
  data: z.record(z.string(), z.unknown()).optional(),
  resource_id: text.optional(),
});

/**
 * The control API of events and their delivery: the attempts log, redelivery, the events
 * emitted so far, and events of happenings the sandbox does not simulate (an account
 * approved or suspended, an RFI raised, a conversion cancelled...).
 */
export const eventControlRoutes: readonly Route[] = [
  controlRoute('GET', '/deliveries', ({ runtime }) => json(runtime.deliveries.attempts())),
  controlRoute('DELETE', '/deliveries', ({ runtime }) => {
    runtime.deliveries.clearAttempts();
    return json({ ok: true });
  }),
  // Sends a recorded event again, as it was, to the current subscribers of its name. `name`
  // picks between events that share an id (ga.new SETTLED and deposit.settled do).
  controlRoute('POST', '/deliveries/redeliver', ({ body, runtime }) => {
    const { eventId, name } = validate(redeliverBody, body);
    const event = runtime.store.events.find(eventId, name);
    if (event === undefined) throw new ApiError(404, `Event ${eventId} not found`);
    const deliveries = publishEvent(runtime, event, runtime.clock.now().getTime());
    return json({ eventId, deliveries });
  }),
  controlRoute('GET', '/events', ({ runtime }) => json(runtime.store.events.list())),
  controlRoute('POST', '/events', ({ body, runtime }) => {
    const input = validate(eventBody, body);
    const { store } = runtime;
    const at = runtime.clock.now().getTime();
    const id = input.resource_id ?? defaultResourceId(store, input.name, runtime.credentials.userId);
    const data = mergeData(defaultData(input.name, { store, id, at }), input.data ?? {});
    return json({ eventId: store.events.emitAny(input.name, data, id, at).id });
  }),
];
