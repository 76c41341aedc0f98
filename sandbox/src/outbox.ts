import type { SandboxLogger } from './logger.ts';
import type { SentEmail } from './records.ts';
import type { SandboxStore } from './store.ts';

/** E-mails the bank would send, kept for tests and demos (GET /sandbox/emails); see records.ts. */
export function sendEmail(store: SandboxStore, logger: SandboxLogger | null, email: SentEmail): void {
  store.emails.set(`eml_${store.emails.size + 1}`, email);
  const about = email.kind === 'card_activation' ? { cardId: email.cardId } : { eventId: email.eventId };
  logger?.info({ to: email.to, kind: email.kind, ...about }, 'sandbox e-mail sent');
}

export function listEmails(store: SandboxStore): SentEmail[] {
  return [...store.emails.values()].map((email) => ({ ...email }));
}
