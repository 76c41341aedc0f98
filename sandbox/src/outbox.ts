import type { SandboxLogger } from './runtime.ts';
import type { SandboxStore } from './store.ts';

/**
 * E-mails the bank would send, kept for tests and demos (GET /sandbox/emails). The outbox
 * is the only place an activation code is ever shown: log lines name the e-mail, never the code.
 */
export type SentEmail = ActivationEmail | NotificationEmail;

interface EmailBase {
  to: string;
  subject: string;
  /** Sandbox clock, ISO 8601. */
  time: string;
}

export interface ActivationEmail extends EmailBase {
  kind: 'card_activation';
  cardId: string;
  activationCode: string;
}

/** An event told to an `n` (notification) webhook subscription (Document 3, section 4.1). */
export interface NotificationEmail extends EmailBase {
  kind: 'event_notification';
  /** The subscription's whitelisted sender, or the service's default one. */
  from: string;
  eventId: string;
  eventName: string;
}

export function sendEmail(store: SandboxStore, logger: SandboxLogger | null, email: SentEmail): void {
  store.emails.set(`eml_${store.emails.size + 1}`, email);
  const about = email.kind === 'card_activation' ? { cardId: email.cardId } : { eventId: email.eventId };
  logger?.info({ to: email.to, kind: email.kind, ...about }, 'sandbox e-mail sent');
}

export function listEmails(store: SandboxStore): SentEmail[] {
  return [...store.emails.values()].map((email) => ({ ...email }));
}
