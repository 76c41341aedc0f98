import type { IncomingMessage, ServerResponse } from 'node:http';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The methods that change state: idempotent on x-request-id where the family carries it. */
export const WRITE_METHODS: ReadonlySet<string> = new Set<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a handler produces; the pipeline turns it into bytes. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Renders an error for a family of endpoints (Documents 1 and 2 use the envelope). `code` is
 * the failure's own error code, for the families whose bodies carry one (codedError); the
 * others ignore it.
 */
export type ErrorStyle = (status: number, message: string, code?: string) => Reply;

export interface ApiErrorOptions {
  headers?: Record<string, string>;
  /** A code more precise than the status gives (e.g. `invalid_operation` for a 400). */
  code?: string;
}

/**
 * A failure a handler or a pipeline step reports; rendered with the route's ErrorStyle.
 * The HTTP status doubles as the envelope code.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string> | undefined;
  readonly code: string | undefined;

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = options.headers;
    this.code = options.code;
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

/**
 * The `id` query parameter Document 2's card and cardholder calls take (`?id=`); a blank one
 * counts as missing. The message is the documented one (Document 2, section 7).
 */
export function requiredQueryId(query: Record<string, string>): string {
  const id = query.id?.trim();
  if (id === undefined || id === '') throw badRequest('id is a required parameter and is missing');
  return id;
}

/**
 * The record, or the answer to an unknown id: 400 `<Resource> <id> not found`, which the
 * gateway reads as "no such record" on reads.
 */
export function found<T>(record: T | undefined, resource: string, id: string): T {
  if (record === undefined) throw badRequest(`${resource} ${id} not found`);
  return record;
}

/**
 * The Document 1 envelope. `status` is `success` by default; Document 2 has endpoints that
 * answer `Success`, hence the parameter.
 */
export function ok(data: unknown, message = 'Success', status = 'success'): Reply {
  return { status: 200, body: { code: 200, status, message, data } };
}

/**
 * The envelope with no `data` key: Document 2's successful writes answer only code, status
 * and message.
 */
export function done(message: string): Reply {
  return { status: 200, body: { code: 200, status: 'success', message } };
}

/** Document 1, section 7: errors carry code = HTTP status, status `Error`, data null. */
export const envelopeError: ErrorStyle = (status, message) => ({
  status,
  body: { code: status, status: 'Error', message, data: null },
});

/** Document 3's webhook management family: no envelope, `{ message, status: "ERROR" }`. */
export const bareError: ErrorStyle = (status, message) => ({ status, body: { message, status: 'ERROR' } });

// The code of a failure that names none: snake_case, after its HTTP status (the direct debit
// family's codes are not shown in the document; see codedError).
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  429: 'too_many_requests',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? (status < 500 ? 'invalid_request' : 'internal_error');
}

/**
 * Document 3's direct debit family: no envelope, `{ code, message }` (the shape is not shown
 * in the document; section 7 names the code `invalid_operation`). The webhook family's bare
 * style has no room for a code, hence a style of its own.
 */
export const codedError: ErrorStyle = (status, message, code = codeForStatus(status)) => ({ status, body: { code, message } });

/** The control API is ours, not the bank's: plain `{ error }` bodies. */
export const plainError: ErrorStyle = (status, message) => ({ status, body: { error: message } });

export function renderError(style: ErrorStyle, error: ApiError): Reply {
  const reply = style(error.status, error.message, error.code);
  return error.headers ? { ...reply, headers: { ...reply.headers, ...error.headers } } : reply;
}

// One megabyte is far above any body in the contract; the cap only protects the process.
const BODY_LIMIT_BYTES = 1_048_576;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > BODY_LIMIT_BYTES) throw badRequest('request body is too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An empty body is `undefined`, so body schemas report "request body must be a JSON object". */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badRequest('request body is not valid JSON');
  }
}

/** A reply turned into what goes on the wire: its JSON text and its headers. */
export interface SerializedReply {
  status: number;
  headers: Record<string, string | number>;
  text: string;
}

/**
 * Serializes a reply. An API call's reply is serialized as the call arrives, inside its latency:
 * the answers of a round then leave together when it has passed (serialized at the deadline, a
 * round's answers left one after another, each behind the serializing of the one before), and the
 * body shows the records as they were when the bank did the work.
 */
export function serializeReply(reply: Reply): SerializedReply {
  const text = JSON.stringify(reply.body) ?? 'null';
  return {
    status: reply.status,
    headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) },
    text,
  };
}

export function sendReply(res: ServerResponse, reply: Reply | SerializedReply): void {
  const wire = 'text' in reply ? reply : serializeReply(reply);
  res.writeHead(wire.status, wire.headers);
  res.end(wire.text);
}
