import { z } from 'zod';
import { controlRoute, json } from '../../control.ts';
import { EVENT_NAMES } from '../../events/catalogue.ts';
import { ApiError } from '../../http.ts';
import type { Route } from '../../routes.ts';
import { validate } from '../../validation.ts';
import { publishEvent } from './fanout.ts';

const redeliverBody = z.object({ eventId: z.string().trim().min(1), name: z.enum(EVENT_NAMES).optional() });

/**
 * Sends a recorded event again, as it was, to the current subscribers of its name. `name` picks
 * between events that share an id (ga.new SETTLED and deposit.settled do).
 */
export const webhookControlRoutes: readonly Route[] = [
  controlRoute('POST', '/deliveries/redeliver', ({ body, runtime }) => {
    const { eventId, name } = validate(redeliverBody, body);
    const event = runtime.store.events.find(eventId, name);
    if (event === undefined) throw new ApiError(404, `Event ${eventId} not found`);
    const deliveries = publishEvent(runtime, event, runtime.clock.now().getTime());
    return json({ eventId, deliveries });
  }),
];
