// The records of the core's own collections (store.ts): the outbox and the scheduled work.

export interface ScheduledJob {
  /** A key of some domain's `jobs`, e.g. `payout.process`. */
  kind: string;
  subjectId: string;
  /** Epoch ms; the job runs as of this instant, however late it is noticed. */
  at: number;
}

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

interface ActivationEmail extends EmailBase {
  kind: 'card_activation';
  cardId: string;
  activationCode: string;
}

/** An event told to an `n` (notification) webhook subscription (Document 3, section 4.1). */
interface NotificationEmail extends EmailBase {
  kind: 'event_notification';
  /** The subscription's whitelisted sender, or the service's default one. */
  from: string;
  eventId: string;
  eventName: string;
}
