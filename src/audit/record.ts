/**
 * One audit record: a mutation attempt, allowed or refused. Written to the audit trail (trail.ts)
 * as one JSON line, never holding a credential, card number, PIN, CVV, activation code or token:
 * only who, what, on which records, and how it ended.
 */
export interface AuditRecord {
  /** Always `mutation`: what kind of attempt this record is, so a shared stream can be filtered on it. */
  audit: 'mutation';
  /** When the attempt ended, ISO 8601 with milliseconds (UTC). */
  time: string;
  /** Who: the caller's kind and name (API key name, JWT subject, bank user or `anonymous`), never the credential. */
  caller: { kind: string; name: string };
  /** The roles the caller acted with (empty where the mode grants everything without roles). */
  roles: string[];
  /** The cardholder a bound caller is tied to; null for every other caller. */
  cardholder: string | null;
  /** The GraphQL operation's name, or null for an anonymous operation. */
  operation: string | null;
  /** The mutation field, e.g. `payoutCreate`. */
  field: string;
  /** Bank ids the input names, by input field (`cardId`, `quoteId`...). */
  targets: Record<string, string>;
  /** The bank id of the record a successful write created or answered with, where it has one. */
  result: string | null;
  /** The caller's idempotencyKey, when given. */
  idempotencyKey: string | null;
  /**
   * How it ended: `success`; `typed_error` (ValidationError and the like: nothing was sent);
   * `bank_rejection` (the bank refused it); `forbidden` (the caller lacks the permission: nothing
   * was sent); `error` (the bank could not be reached, or an unexpected failure); `refused`
   * (stopped before execution, e.g. RATE_LIMITED).
   */
  outcome: 'success' | 'typed_error' | 'bank_rejection' | 'forbidden' | 'error' | 'refused';
  /** The typed error's GraphQL type (`ValidationError`), or the error code (`UPSTREAM_UNAVAILABLE`); null on success. */
  detail: string | null;
  /** The missing permission of a `forbidden` attempt. */
  permission: string | null;
  /** The gateway's request id (x-request-id), as in the operation's log line. */
  requestId: string;
  /** The OpenTelemetry trace id, with tracing on; null otherwise. */
  traceId: string | null;
}
