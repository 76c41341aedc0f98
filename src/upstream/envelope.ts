import { z } from 'zod';

/**
 * The response envelope of Documents 1 and 2: `code`, `status` (`success`, `Success` or `Error`),
 * `message`, `data`. Parsed loosely on purpose: the envelope decides success or failure, and only
 * `data` is held to its endpoint's model.
 */
const envelopeSchema = z.object({
  code: z.union([z.number(), z.string()]).optional(),
  status: z.string().optional(),
  message: z.string().nullish(),
  data: z.unknown().optional(),
});

export type EnvelopeReading =
  | { ok: true; data: unknown; message: string | undefined }
  | { ok: false; status: number; message: string | undefined; code?: string | undefined }
  | { ok: 'malformed'; reason: string };

/** Reads an upstream body against its HTTP status: success, a documented error, or not an envelope. */
export function readEnvelope(httpStatus: number, body: unknown): EnvelopeReading {
  const envelope = keptEnvelope(body) ?? envelopeSchema.safeParse(body).data;
  if (envelope === undefined) {
    if (httpStatus >= 400) return { ok: false, status: httpStatus, message: undefined };
    return { ok: 'malformed', reason: 'the body is not a response envelope' };
  }
  const { code, status, message } = envelope;
  const envelopeCode = code === undefined ? undefined : Number(code);
  const saysError =
    status?.toLowerCase() === 'error' || (envelopeCode !== undefined && Number.isFinite(envelopeCode) && envelopeCode >= 400);
  if (httpStatus >= 400 || saysError) {
    // An error in a 200 response still deserves its own status: prefer the envelope's code then.
    const effective = httpStatus >= 400 ? httpStatus : envelopeCode && envelopeCode >= 400 ? envelopeCode : 400;
    return { ok: false, status: effective, message: message ?? undefined };
  }
  if (status !== undefined && status.toLowerCase() !== 'success') {
    return { ok: 'malformed', reason: `unknown envelope status "${status}"` };
  }
  return { ok: true, data: envelope.data, message: message ?? undefined };
}

type Envelope = z.output<typeof envelopeSchema>;

/**
 * The body as envelopeSchema reads it, read without zod when it keeps the schema's rule (every
 * answer of a bank that keeps its contract: zod's payload, issues and result for each call are
 * garbage on every screen); undefined otherwise, and zod decides.
 */
function keptEnvelope(body: unknown): Envelope | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { code, status, message, data } = body as Record<string, unknown>;
  if (code !== undefined && typeof code !== 'string' && !(typeof code === 'number' && Number.isFinite(code))) return undefined;
  if (status !== undefined && typeof status !== 'string') return undefined;
  if (message !== undefined && message !== null && typeof message !== 'string') return undefined;
  return { code, status, message, data };
}

/** A body without the envelope: the HTTP status decides, and an error's text is read where it can be found. */
export function readBareBody(httpStatus: number, body: unknown): EnvelopeReading {
  if (httpStatus < 400) return { ok: true, data: body, message: undefined };
  const code = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).code : undefined;
  return { ok: false, status: httpStatus, message: errorText(body), code: typeof code === 'string' ? code : undefined };
}

function errorText(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 500) || undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'code']) {
    if (typeof record[key] === 'string') return record[key];
  }
  return undefined;
}
