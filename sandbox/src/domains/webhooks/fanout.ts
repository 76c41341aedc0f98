import type { WebhookEvent } from '../../events/bus.ts';
import { sendEmail } from '../../outbox.ts';
import type { Runtime } from '../../runtime.ts';

/** Until support whitelists a sender, notifications come from the service's own address. */
export const DEFAULT_SENDER = 'notifications@sandbox.example';

/**
 * Hands an event to every subscription of its name: `w` ones to the delivery queue (with the
 * URL and key they have now), `n` ones as an e-mail to the user. Returns how many webhook
 * deliveries were queued. Deliveries to one URL go one at a time in event order: so those of
 * each subscription do, as promised, and a receiver of several events sees them as they
 * happened (ga.new SETTLED before deposit.settled).
 */
export function publishEvent(runtime: Runtime, event: WebhookEvent, at: number): number {
  let queued = 0;
  for (const subscription of runtime.store.webhookSubscriptions.values()) {
    if (subscription.event_name !== event.name) continue;
    const { webhook_url: url, x_api_key: apiKey } = subscription;
    if (subscription.subscription_type === 'w' && url !== null && apiKey !== null) {
      runtime.deliveries.enqueue(event, { key: url, url, apiKey });
      queued += 1;
    } else if (subscription.subscription_type === 'n') {
      sendEmail(runtime.store, runtime.logger, {
        kind: 'event_notification',
        to: runtime.credentials.email,
        from: subscription.sender_email ?? DEFAULT_SENDER,
        subject: `${event.name} ${event.id}`,
        eventId: event.id,
        eventName: event.name,
        time: new Date(at).toISOString(),
      });
    }
  }
  return queued;
}
