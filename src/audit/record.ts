/**
 * The audit trail's records, each written as one JSON line, never holding a credential, card number,
 * PIN, CVV, activation code or token: only who, what, on which records, and how it ended. `audit`
 * says which kind a record is, so a shared stream can be filtered on it.
 */
export type AuditRecord = MutationRecord | AccessDeniedRecord;

/** Who called, as the trail names a caller: never the credential. */
export interface AuditCaller {
  /** `api-key`, `jwt`, `upstream-token` or `anonymous`. */
  kind: string;
  /** The API key's name, the JWT subject, the bank user, or `anonymous`. */
  name: string;
}

/** How a mutation field that ran ended. */
export type MutationOutcome = 'success' | 'typed_error' | 'bank_rejection' | 'forbidden' | 'error' | 'not_sent' | 'outcome_unknown';

/** One mutation field whose resolver ran, written when it ended. */
export interface MutationRecord {
  audit: 'mutation';
  /** When the field ended (the bank's answer arrived, or the gateway answered without it), ISO 8601 UTC. */
  time: string;
  caller: AuditCaller;
  /** The roles the caller acted with, sorted: after any cap (a caller bound to a cardholder holds `cardholder` alone). */
  roles: string[];
  /** The permissions the caller acted with, sorted. */
  permissions: string[];
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
  /**
   * The key the write went with as its x-request-id: the caller's idempotencyKey, or the one the
   * gateway made (the key an `outcome_unknown` answer told the caller to retry with); null when the
   * caller gave none and nothing was sent.
   */
  idempotencyKey: string | null;
  /** Who made `idempotencyKey`: `client` or `gateway`; null with no key. */
  idempotencyKeyBy: 'client' | 'gateway' | null;
  /**
   * `success`: done (the bank accepted the write). `typed_error`: ValidationError and the like,
   * nothing sent. `bank_rejection`: the bank refused the write. `forbidden`: the caller lacks the
   * permission, nothing sent. `error`: the bank could not be reached or gave no usable answer, or an
   * unexpected failure. `not_sent`: the client left before the write was sent, so it never was.
   * `outcome_unknown`: the write was sent and its answer lost (connection dropped or timed out, the
   * deadline on the wire, a 5xx): the bank may have applied it; the caller was told to retry with
   * `idempotencyKey`.
   */
  outcome: MutationOutcome;
  /** The typed error's GraphQL type (`ValidationError`) or the error code (`UPSTREAM_UNAVAILABLE`); null on a plain success. */
  detail: string | null;
  /** The missing permission of a `forbidden` attempt. */
  permission: string | null;
  /** Whether the client had left (closed its connection or socket) by the time the field ended: it never saw this outcome. */
  clientGone: boolean;
  /** The gateway's own id of the request (its x-request-id answer header, x-correlation-id to the bank): unique. */
  requestId: string;
  /** The x-request-id the caller sent, when plausible; only the caller vouches for it. */
  clientRequestId: string | null;
  /** The OpenTelemetry trace id, with tracing on; null otherwise. */
  traceId: string | null;
}

/**
 * Requests refused before anything ran (a bad credential, CSRF, a mutation over GET, an untrusted
 * document, the operations per window), aggregated: the first of a caller (or address), reason and
 * transport in its minute is written at once with count 1, the others of that minute as one record
 * with their count when the minute ends.
 */
export interface AccessDeniedRecord {
  audit: 'access_denied';
  /** When the record was written, ISO 8601 UTC. */
  time: string;
  /** The refusal's code: UNAUTHENTICATED, AUTH_UNAVAILABLE, CSRF_HEADER_REQUIRED, MUTATION_OVER_GET, PERSISTED_QUERY_*, RATE_LIMITED. */
  reason: string;
  /** `http` (GET, POST, server-sent events) or `graphql-ws`. */
  transport: string;
  /** The caller when it was known (its credential passed); null when the credential was refused or never checked. */
  caller: AuditCaller | null;
  /** The address the request came from; null when unknown or in an overflow record. */
  address: string | null;
  /** How many refusals this record stands for. */
  count: number;
  /** The first and the last of them, ISO 8601 UTC. */
  firstAt: string;
  lastAt: string;
  /** The gateway's request id of a record of one written at once; null in a record of the rest of a minute. */
  requestId: string | null;
  /** True: more callers and addresses were refused this minute than are kept apart; this counts the others of the reason. */
  overflow: boolean;
}
