import { maskCardNumbersIn } from './models.ts';

/**
 * Typed failures of upstream calls, in the manner of stripe-node's error classes. They carry what an
 * operator needs to trace a call (endpoint, status, the upstream's own message, the x-request-id) and
 * never a header, token or credential: nothing in here is built from request headers.
 */

export interface UpstreamErrorDetails {
  /** Logical endpoint, e.g. `GET /svc/api/v1/account`. */
  endpoint: string;
  /** The x-request-id the call was sent with. */
  requestId: string;
}

export class UpstreamError extends Error {
  readonly endpoint: string;
  readonly requestId: string;
  constructor(message: string, details: UpstreamErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.endpoint = details.endpoint;
    this.requestId = details.requestId;
  }
}

/** The upstream answered with an error status or an `Error` envelope. */
export class UpstreamHttpError extends UpstreamError {
  /** HTTP status, or the envelope's `code` where the HTTP status said 200. */
  readonly status: number;
  /** The upstream's own `message`, if it sent one. */
  readonly upstreamMessage: string | undefined;
  /** Seconds the upstream asked us to wait (Retry-After), if it did. */
  readonly retryAfterMs: number | undefined;
  /** The error code of bodies that carry one (Document 3's direct debit family, e.g. invalid_operation). */
  readonly upstreamCode: string | undefined;
  constructor(
    status: number,
    upstreamMessage: string | undefined,
    details: UpstreamErrorDetails & { retryAfterMs?: number | undefined; code?: string | undefined },
  ) {
    // Card numbers never travel on in an error, even if the bank put one in its message.
    const message = upstreamMessage === undefined ? undefined : maskCardNumbersIn(upstreamMessage);
    super(message ?? `Upstream answered HTTP ${status}`, details);
    this.status = status;
    this.upstreamMessage = message;
    this.retryAfterMs = details.retryAfterMs;
    this.upstreamCode = details.code;
  }
}

/** 400-class refusal of the request itself (bad input, business rule). Not retried. */
export class UpstreamRejectedError extends UpstreamHttpError {}
/**
 * The bank refused because the client's program does not offer the operation (Document 1, section
 * 9: "availability of some endpoints depends on the client's program"). Recognised by the message
 * suffix `is not supported for the <PROGRAM> program` (docs/sandbox.md).
 */
export class ProgramNotSupportedError extends UpstreamRejectedError {
  readonly program: string;
  constructor(status: number, upstreamMessage: string, program: string, details: UpstreamErrorDetails) {
    super(status, upstreamMessage, details);
    this.program = program;
  }
}

/**
 * Document 3, section 7: the bank refused an operation the resource does not allow (e.g. cancelling
 * a direct debit outside the UK or not in GBP): HTTP 400 with code `invalid_operation`.
 */
export class InvalidOperationError extends UpstreamRejectedError {}

const PROGRAM_NOT_SUPPORTED = /is not supported for the (\w+) program\.?$/i;

/** 401: the token was missing, expired or refused (or the credentials, on login). */
export class UpstreamAuthError extends UpstreamHttpError {}
/** 404: a path or resource the upstream does not know. */
export class UpstreamNotFoundError extends UpstreamHttpError {}
/**
 * 429: too many requests. Retried after Retry-After (writes too, with the same x-request-id: the bank
 * refused before doing anything). See retry-policy.ts.
 */
export class UpstreamRateLimitError extends UpstreamHttpError {}
/** 5xx: the upstream failed. Reads are retried. */
export class UpstreamServerError extends UpstreamHttpError {}

/**
 * No answer: connection refused or dropped, or the per-call timeout (UPSTREAM_TIMEOUT_MS). Reads are
 * retried. `reason` is undici's error code (e.g. ECONNREFUSED, UND_ERR_SOCKET): for logs only, as the
 * cause's own message may name the bank's host and port.
 */
export class UpstreamNetworkError extends UpstreamError {
  readonly reason: string;
  /** The per-call timeout struck (connect, headers or body), rather than the connection failing. */
  readonly timedOut: boolean;
  constructor(reason: string, details: UpstreamErrorDetails, options?: { cause?: unknown; timedOut?: boolean }) {
    super(`Upstream did not answer ${details.endpoint}: ${reason}`, details, options);
    this.reason = reason;
    this.timedOut = options?.timedOut ?? false;
  }
}

/** Why the gateway gave up on the bank without (another) answer. */
export type UnavailableReason = 'DEADLINE_EXCEEDED' | 'CIRCUIT_OPEN' | 'RATE_LIMITED';

/**
 * The gateway stopped short of (or stopped waiting for) the bank: the operation's deadline passed,
 * the family's circuit breaker is open, or the bank's Retry-After lies past what the call may wait.
 * The message is written for the caller; it names no upstream address.
 */
export class UpstreamUnavailableError extends UpstreamError {
  readonly reason: UnavailableReason;
  /** When the caller may usefully try again (Retry-After, or the breaker's next probe), if known. */
  readonly retryAfterSeconds: number | undefined;
  /** The request was on the wire when the deadline struck: the bank was slow, which its breaker counts. */
  readonly inFlight: boolean;
  constructor(
    reason: UnavailableReason,
    message: string,
    details: UpstreamErrorDetails,
    options: { retryAfterSeconds?: number | undefined; inFlight?: boolean; cause?: unknown } = {},
  ) {
    super(message, details, { cause: options.cause });
    this.reason = reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.inFlight = options.inFlight ?? false;
  }
}

/**
 * The operation's client left (the connection closed, the subscription ended) before it was done, so
 * the gateway stopped its calls: those waiting were never sent, reads on the wire were cut (a write
 * on the wire is never: the bank decides it). One per operation, as its signal's reason (operation.ts).
 * Nobody reads the answer; its reason is the deadline's, the operation's time being over, so the
 * codes a caller may see stay those of docs/errors.md. It says nothing of the bank: no breaker or
 * retry acts on it, and it is not logged as a failure.
 */
export class OperationAbandonedError extends UpstreamUnavailableError {
  constructor(correlationId: string | undefined) {
    super('DEADLINE_EXCEEDED', 'The client left before the operation was done: the gateway stopped its calls to the bank', {
      endpoint: 'none',
      requestId: correlationId ?? 'none',
    });
  }
}

/**
 * A write went to the bank and nobody knows whether the bank applied it: the connection dropped or
 * timed out after the request was sent, the deadline struck while it was on the wire, or the bank
 * answered 5xx. It was sent with `idempotencyKey` as its x-request-id (the bank's idempotency key,
 * Document 1, section 4): sent again with that key, the bank applies it at most once and answers
 * its one result, so that is the safe retry. `check` says where to look before doing anything else.
 */
export class WriteOutcomeUnknownError extends UpstreamError {
  readonly idempotencyKey: string;
  readonly check: string;
  constructor(details: UpstreamErrorDetails, check: string, options: { cause?: unknown; bankKeepsKey: boolean }) {
    super(
      `The bank may or may not have applied this (its answer was lost). ${retryAdvice(details.requestId, options.bankKeepsKey)}`,
      details,
      options,
    );
    this.idempotencyKey = details.requestId;
    this.check = check;
  }
}

/**
 * Where the bank keeps the key, a retry with it is a replay. Document 3's families keep none: the
 * gateway then tells a refusal that only means "already done" from a new one (MayHaveGoneThrough,
 * and a cancel already done answers the record).
 */
function retryAdvice(key: string, bankKeepsKey: boolean): string {
  if (bankKeepsKey) return `Send it again with idempotencyKey "${key}": the bank applies it once and answers its one result.`;
  return `The bank keeps no idempotency key for this call: send it again with idempotencyKey "${key}", and a refusal that only means it was already done is answered as such.`;
}

/**
 * The bank refused a write that repeats one whose outcome was unknown (the same caller, request and
 * input, under another key): the refusal may only mean the earlier one went through (its quote is
 * used, its collection already cancelled). Not a plain rejection: look (`check`), or send it again
 * with the earlier key, which answers the earlier attempt's one result.
 */
export class WriteMayHaveGoneThroughError extends UpstreamRejectedError {
  readonly earlierIdempotencyKey: string;
  readonly earlierAt: string;
  readonly check: string;
  constructor(rejection: UpstreamRejectedError, earlier: { idempotencyKey: string; at: string }, check: string) {
    super(rejection.status, rejection.upstreamMessage, {
      endpoint: rejection.endpoint,
      requestId: rejection.requestId,
      code: rejection.upstreamCode,
    });
    this.message = `The bank refused this, but an earlier attempt of the same request (idempotencyKey "${earlier.idempotencyKey}", ${earlier.at}) may have gone through: ${check} Sent again with that key, the bank answers the earlier attempt's one result. The bank said: ${rejection.message}`;
    this.earlierIdempotencyKey = earlier.idempotencyKey;
    this.earlierAt = earlier.at;
    this.check = check;
  }
}

export interface ContractIssue {
  /** Dotted path into the response body, e.g. `data[0].supported_features[1].transfer_method`. */
  path: string;
  message: string;
}

/** The upstream answered, but its payload does not match the documented model. */
export class UpstreamContractError extends UpstreamError {
  readonly issues: ContractIssue[];
  constructor(issues: ContractIssue[], details: UpstreamErrorDetails) {
    super(`Upstream ${details.endpoint} returned a payload that breaks its contract${contractWhere(issues)}`, details);
    this.issues = issues;
  }
}

/** ` at data[0].id: <rule> (and 2 more)`: where the payload broke, never what it held. */
export function contractWhere(issues: ContractIssue[]): string {
  const first = issues[0];
  const where = first ? ` at ${first.path}: ${first.message}` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${where}${more}`;
}

export function httpErrorFor(
  status: number,
  message: string | undefined,
  details: UpstreamErrorDetails & { retryAfterMs?: number | undefined; code?: string | undefined },
): UpstreamHttpError {
  if (status === 401) return new UpstreamAuthError(status, message, details);
  if (status === 404) return new UpstreamNotFoundError(status, message, details);
  if (status === 429) return new UpstreamRateLimitError(status, message, details);
  if (status >= 500) return new UpstreamServerError(status, message, details);
  if (details.code === 'invalid_operation') return new InvalidOperationError(status, message, details);
  const program = message ? PROGRAM_NOT_SUPPORTED.exec(message)?.[1] : undefined;
  if (program && message) return new ProgramNotSupportedError(status, message, program.toUpperCase(), details);
  return new UpstreamRejectedError(status, message, details);
}

/**
 * A record names another by id (a direct debit its mandate, a card its cardholder) and the bank does
 * not find that one. The id itself stays readable in its own field; the link says why it is empty.
 */
export class LinkedRecordNotFoundError extends Error {
  readonly typename: string;
  readonly upstreamId: string;

  constructor(typename: string, upstreamId: string) {
    super(`The bank has no ${typename} ${upstreamId}, although the record links to it`);
    this.name = 'LinkedRecordNotFoundError';
    this.typename = typename;
    this.upstreamId = upstreamId;
  }
}

/**
 * An id that must not go out (see ids.ts): refused before the call. The graph checks ids where they
 * come in, naming the field; this is the last guard, for ids from anywhere (a link, `node(id:)`).
 */
export class InvalidBankIdError extends Error {
  readonly parameter: string;

  constructor(parameter: string, problem: string) {
    super(`${parameter} ${problem}`);
    this.name = 'InvalidBankIdError';
    this.parameter = parameter;
  }
}

/** No token to send: the gateway has no client credentials and the caller sent no bearer token. */
export class NoCredentialsError extends Error {
  constructor() {
    super(
      'No upstream credentials: send "Authorization: Bearer <token>" (from the accessTokenCreate mutation) or configure UPSTREAM_CLIENT_KEY, UPSTREAM_CLIENT_SECRET and UPSTREAM_EMAIL',
    );
    this.name = 'NoCredentialsError';
  }
}
