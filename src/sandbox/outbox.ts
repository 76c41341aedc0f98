import type { SandboxLogger } from './runtime.ts';
import type { SandboxStore } from './store.ts';

/**
 * E-mails the bank would send, kept for tests and demos (GET /sandbox/emails). The outbox
 * is the only place an activation code is ever shown: log lines name the card, never the code.
 */
export interface SentEmail {
  to: string;
  subject: string;
  kind: 'card_activation';
  cardId: string;
  activationCode: string;
  /** Sandbox clock, ISO 8601. */
  time: string;
}

export function sendEmail(store: SandboxStore, logger: SandboxLogger | null, email: SentEmail): void {
  store.emails.set(`eml_${store.emails.size + 1}`, email);
  logger?.info({ to: email.to, kind: email.kind, cardId: email.cardId }, 'sandbox e-mail sent');
}

export function listEmails(store: SandboxStore): SentEmail[] {
  return [...store.emails.values()].map((email) => ({ ...email }));
}
