import { z } from 'zod';
import { plainError, type Reply } from './http.ts';
import type { WebhookEvent } from './events/bus.ts';
import { FAULT_KINDS, type FaultSpec } from './faults.ts';
import { listEmails } from './outbox.ts';
import { PROGRAMS } from './program.ts';
import type { HttpMethod } from './http.ts';
import type { Handler, Route } from './routes.ts';
import type { Runtime } from './runtime.ts';
import { validate } from './validation.ts';

/**
 * The sandbox's own API under /sandbox/: no auth, plain JSON, never logged, never delayed
 * or faulted. Tests and the demo use it to steer time, latency and failures.
 */
const nonNegative = z.number().min(0, 'must be at least 0');

const advanceBody = z.object({
  ms: nonNegative.optional(),
  seconds: nonNegative.optional(),
  minutes: nonNegative.optional(),
  days: nonNegative.optional(),
});

const latencyBody = z.object({ ms: z.number().int().min(0).max(600_000) });
const capacityBody = z.strictObject({
  concurrency: z.number().int().min(1).max(100_000).nullable(),
  overflow: z.enum(['queue', 'reject']).default('queue'),
  retryAfterSeconds: z.number().int().min(0).max(3600).nullable().default(null),
});

const programBody = z.object({ program: z.enum(PROGRAMS) });

/** POST /sandbox/faults; see faults.ts for what each kind does. */
const faultBody = z
  .object({
    kind: z.enum(FAULT_KINDS),
    count: z.number().int().min(1).optional(),
    rate: z.number().min(0).max(1).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
    // 4xx and 5xx only: they are the statuses that carry the error envelope.
    status: z.number().int().min(400).max(599).default(500),
    retryAfterSeconds: z.number().int().min(0).optional(),
    message: z.string().min(1).optional(),
    stallMs: z.number().int().min(0).default(30_000),
    body: z.unknown().optional(),
    method: z.string().min(1).optional(),
    path: z.string().startsWith('/', 'must start with /').optional(),
  })
  .refine((fault) => fault.count === undefined || fault.rate === undefined, { error: 'cannot be combined with count', path: ['rate'] })
  .refine((fault) => fault.seed === undefined || fault.rate !== undefined, { error: 'applies only with rate', path: ['seed'] });

function toFaultSpec(input: z.output<typeof faultBody>): FaultSpec {
  const spec: FaultSpec = {
    kind: input.kind,
    count: input.rate === undefined ? (input.count ?? 1) : null,
    rate: input.rate ?? null,
    seed: input.seed ?? null,
    status: input.status,
    retryAfterSeconds: input.retryAfterSeconds ?? null,
    message: input.message ?? 'Injected fault',
    stallMs: input.stallMs,
    method: input.method?.toUpperCase() ?? null,
    path: input.path ?? null,
  };
  if (input.body !== undefined) spec.body = input.body;
  return spec;
}

export const json = (body: unknown): Reply => ({ status: 200, body });

/**
 * The answer of a control call that sets a record's status (a card's, a cardholder's): the status
 * before and after, and the event that announced the move; `changed` false and `eventId` null when
 * the record already had it, as then nothing changed and nothing was emitted.
 */
export const statusReply = (id: string, previousStatus: string, status: string, event: WebhookEvent | null): Reply =>
  json({ id, previousStatus, status, changed: previousStatus !== status, eventId: event?.id ?? null });
const clockNow = (runtime: Runtime): Reply => json({ now: runtime.clock.now().toISOString() });
const programNow = (runtime: Runtime): Reply => json({ program: runtime.program.current() });

/** A route of the control API; domains build theirs with it too (Domain.controlRoutes). */
export const controlRoute = (method: HttpMethod, path: string, handler: Handler): Route => ({
  method,
  path: `/sandbox${path}`,
  headers: 'none',
  errors: plainError,
  handler,
});

export const controlRoutes: readonly Route[] = [
  controlRoute('POST', '/reset', ({ runtime }) => {
    runtime.reset();
    return json({ ok: true });
  }),
  controlRoute('GET', '/clock', ({ runtime }) => clockNow(runtime)),
  controlRoute('POST', '/clock/advance', ({ body, runtime }) => {
    const { ms = 0, seconds = 0, minutes = 0, days = 0 } = validate(advanceBody, body ?? {});
    runtime.clock.advance(ms + seconds * 1_000 + minutes * 60_000 + days * 86_400_000);
    return clockNow(runtime);
  }),
  controlRoute('GET', '/latency', ({ runtime }) => json({ ms: runtime.latency.current() })),
  {
    ...controlRoute('PUT', '/latency', ({ body, runtime }) => {
      const { ms } = validate(latencyBody, body);
      runtime.latency.override(ms);
      return json({ ms });
    }),
    recordsUnchanged: true,
  },
  controlRoute('GET', '/capacity', ({ runtime }) => json(runtime.capacity.current())),
  {
    ...controlRoute('PUT', '/capacity', ({ body, runtime }) => {
      runtime.capacity.set(validate(capacityBody, body));
      return json(runtime.capacity.current());
    }),
    recordsUnchanged: true,
  },
  controlRoute('GET', '/faults', ({ runtime }) => json(runtime.faults.list())),
  controlRoute('POST', '/faults', ({ body, runtime }) => json(runtime.faults.add(toFaultSpec(validate(faultBody, body))))),
  controlRoute('DELETE', '/faults', ({ runtime }) => {
    runtime.faults.clear();
    return json({ ok: true });
  }),
  // The card program (program.ts); a reset returns to the configured one.
  controlRoute('GET', '/program', ({ runtime }) => programNow(runtime)),
  controlRoute('PUT', '/program', ({ body, runtime }) => {
    runtime.program.set(validate(programBody, body).program);
    return programNow(runtime);
  }),
  // The e-mails the bank would have sent (activation codes), oldest first.
  controlRoute('GET', '/emails', ({ runtime }) => json(listEmails(runtime.store))),
  controlRoute('GET', '/requests', ({ runtime }) => json(runtime.requestLog.list())),
  {
    ...controlRoute('DELETE', '/requests', ({ runtime }) => {
      runtime.requestLog.clear();
      return json({ ok: true });
    }),
    recordsUnchanged: true,
  },
];
