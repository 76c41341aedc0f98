import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { breakContract, statusFaultReply, type Fault } from './faults.ts';
import { assertHeaders, carriesRequestId, headerValue } from './headers.ts';
import {
  ApiError,
  envelopeError,
  parseJsonBody,
  plainError,
  readBody,
  renderError,
  sendReply,
  serializeReply,
  type ErrorStyle,
  type Reply,
  type SerializedReply,
} from './http.ts';
import { requestFingerprint } from './idempotency.ts';
import { SUBJECT_HEADERS } from './request-log.ts';
import { WRITE_METHODS } from './http.ts';
import { createRouter, type RequestContext, type Route, type RouteMatch, type Router } from './routes.ts';
import type { Runtime } from './runtime.ts';
import { Deadlines, sleep } from './timers.ts';

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: Record<string, string>;
}

/**
 * The request pipeline. API calls: the bank's capacity, then routing, body, header checks, idempotency
 * and the handler, answered once the latency has passed; or, when an injected fault matches, the latency
 * first and then the fault. Every API call is logged.
 * Control calls (/sandbox/...) skip latency, faults and the log.
 */
export function createRequestListener(runtime: Runtime, apiRoutes: readonly Route[], controlRoutes: readonly Route[]): RequestListener {
  const api = createRouter(apiRoutes);
  const control = createRouter(controlRoutes);
  const calls = new CallSignals(runtime.closing);
  const deadlines = new Deadlines();
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const call: Call = { req, res, method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, query: firstValues(url.searchParams) };
    const isControl = call.path === '/sandbox' || call.path.startsWith('/sandbox/');
    const handled = isControl ? handleControl(call, control, runtime) : handleApi(call, api, runtime, calls, deadlines);
    handled.catch((error: unknown) => {
      // Only a bug in the pipeline itself lands here; the server carries on regardless.
      runtime.logger.warn({ err: error, method: call.method, path: call.path }, 'sandbox pipeline failed');
      if (!res.headersSent) sendReply(res, envelopeError(500, 'Internal error'));
      else res.destroy();
    });
  };
}

async function handleControl(call: Call, router: Router, runtime: Runtime): Promise<void> {
  sendReply(call.res, await dispatch(call, router, runtime, plainError));
}

/** 'drop': close the connection without answering (the drop and lose faults). */
type Outcome = Reply | SerializedReply | 'drop' | 'aborted';

async function handleApi(call: Call, router: Router, runtime: Runtime, calls: CallSignals, deadlines: Deadlines): Promise<void> {
  // The arrival read before the clock of the duration starts, and the duration's end before the
  // answer leaves: a pause between two readings (a collection, the machine busy elsewhere) then only
  // makes a call look shorter, never longer, so a caller's next call, sent on this one's answer, is
  // never logged as arriving before this one ended (tests read overlaps from the log).
  const time = runtime.clock.now().toISOString();
  const started = performance.now();
  // Taken on arrival, so concurrent calls consume faults in the order they came in.
  const fault = runtime.faults.take(call.method, call.path);
  const outcome = await respond(call, router, runtime, fault, calls.signalFor(call.res), deadlines);
  const durationMs = Math.floor((performance.now() - started) * 100) / 100;
  if (outcome === 'drop') call.req.socket.destroy();
  else if (outcome !== 'aborted') sendReply(call.res, outcome);
  runtime.requestLog.record({
    method: call.method,
    path: call.path,
    query: call.query,
    status: typeof outcome === 'string' ? null : outcome.status,
    time,
    requestId: headerValue(call.req.headers, 'x-request-id') ?? null,
    correlationId: headerValue(call.req.headers, 'x-correlation-id') ?? null,
    traceparent: headerValue(call.req.headers, 'traceparent') ?? null,
    subject: Object.fromEntries(
      SUBJECT_HEADERS.flatMap((name) => {
        const value = headerValue(call.req.headers, name);
        return value ? [[name, value]] : [];
      }),
    ),
    durationMs,
  });
}

/** Within the bank's capacity (capacity.ts): a call past it waits its turn or is refused 429. */
async function respond(
  call: Call,
  router: Router,
  runtime: Runtime,
  fault: Fault | null,
  signal: AbortSignal,
  deadlines: Deadlines,
): Promise<Outcome> {
  const admission = await runtime.capacity.enter(signal, errorStyleFor(router, call));
  if (!admission.admitted) return 'reply' in admission ? admission.reply : 'aborted';
  try {
    return await respondAdmitted(call, router, runtime, fault, signal, deadlines);
  } finally {
    admission.release();
  }
}

/**
 * Latency is the time from a call's arrival to its answer. Without a fault the bank does its work as
 * the call arrives and answers once the latency has passed, as a bank with a worker per call would:
 * the sandbox's own time (one thread) is spent inside the latency rather than added after it, so a
 * round of calls arriving together is answered together, not one after another. A fault keeps its
 * documented order (the latency first, then what the fault does: drop, lose, status, stall, contract).
 */
async function respondAdmitted(
  call: Call,
  router: Router,
  runtime: Runtime,
  fault: Fault | null,
  signal: AbortSignal,
  deadlines: Deadlines,
): Promise<Outcome> {
  const latency = runtime.latency.current();
  if (fault === null) {
    const answerAt = performance.now() + latency;
    const reply = serializeReply(await dispatch(call, router, runtime, envelopeError));
    return (await deadlines.wait(answerAt, signal)) ? reply : 'aborted';
  }
  if (!(await sleep(latency, signal))) return 'aborted';
  switch (fault.kind) {
    case 'drop':
      // The request never reaches the handler: nothing happens on the bank's side.
      return 'drop';
    case 'lose':
      // Everything happens on the bank's side (state, idempotency record); only the answer is lost.
      await dispatch(call, router, runtime, envelopeError);
      return 'drop';
    case 'status':
      return statusFaultReply(fault, errorStyleFor(router, call));
    case 'stall':
      if (!(await sleep(fault.stallMs, signal))) return 'aborted';
      break;
    case 'contract':
      if (fault.body !== undefined) return { status: 200, body: fault.body };
      // The handler runs (and any idempotency record keeps the true reply); only the
      // bytes on the wire are broken.
      return breakContract(await dispatch(call, router, runtime, envelopeError));
    default:
      break;
  }
  return dispatch(call, router, runtime, envelopeError);
}

/**
 * Each API call's signal: it aborts when the sandbox shuts down or the client goes away before
 * the answer. One listener on the shutdown signal serves every call in flight (AbortSignal.any per
 * call cost a visible share of the sandbox's thread).
 */
class CallSignals {
  readonly #live = new Set<AbortController>();
  readonly #closing: AbortSignal;

  constructor(closing: AbortSignal) {
    this.#closing = closing;
    closing.addEventListener(
      'abort',
      () => {
        for (const call of this.#live) call.abort();
      },
      { once: true },
    );
  }

  signalFor(res: ServerResponse): AbortSignal {
    const call = new AbortController();
    if (this.#closing.aborted) call.abort();
    else this.#live.add(call);
    res.on('close', () => {
      this.#live.delete(call);
      if (!res.writableFinished) call.abort();
    });
    return call.signal;
  }
}

function errorStyleFor(router: Router, call: Call): ErrorStyle {
  return familyErrors(router.match(call.method, call.path)) ?? envelopeError;
}

/** The error style of the family a matched path belongs to; undefined for an unknown path. */
function familyErrors(match: RouteMatch): ErrorStyle | undefined {
  if (match.kind === 'found') return match.route.errors;
  return match.kind === 'method-not-allowed' ? match.errors : undefined;
}

/** Routing, then the route's own steps; never throws, every failure becomes a reply. */
async function dispatch(call: Call, router: Router, runtime: Runtime, fallback: ErrorStyle): Promise<Reply> {
  const match = router.match(call.method, call.path);
  // Retired paths (e.g. /svc/api/v1/cardHolders) are simply not routed: 404 like any unknown path.
  if (match.kind === 'not-found') return fallback(404, 'Not found');
  if (match.kind === 'method-not-allowed') {
    const reply = (familyErrors(match) ?? fallback)(405, 'Method not allowed');
    return { ...reply, headers: { ...reply.headers, allow: match.allowed.join(', ') } };
  }
  const { route, params } = match;
  const errors = route.errors ?? envelopeError;
  try {
    const raw = await readBody(call.req);
    assertHeaders(route.headers, route.extraHeaders ?? [], call.method, call.req.headers, runtime);
    // Requests with query or path parameters carry no body (Document 1, section 4): a GET
    // body is ignored rather than parsed.
    const body = call.method === 'GET' ? undefined : parseJsonBody(raw);
    const ctx: RequestContext = {
      runtime,
      method: route.method,
      path: call.path,
      params,
      query: call.query,
      headers: call.req.headers,
      body,
    };
    const execute = (): Promise<Reply> => invoke(route, ctx, errors, runtime);
    if (route.headers === 'none' && WRITE_METHODS.has(call.method) && !route.recordsUnchanged) return await controlWrite(execute, runtime);
    if (!WRITE_METHODS.has(call.method) || !carriesRequestId(route.headers)) return await execute();
    const key = headerValue(call.req.headers, 'x-request-id') ?? '';
    return await runtime.idempotency.run(key, requestFingerprint(call.method, call.path, call.query, body), execute);
  } catch (error) {
    return failure(error, errors, runtime, call);
  }
}

/** A control-API write: once it went through, whoever watches the sandbox's state is told. */
async function controlWrite(execute: () => Promise<Reply>, runtime: Runtime): Promise<Reply> {
  const reply = await execute();
  if (reply.status < 400) runtime.controlChanged();
  return reply;
}

async function invoke(route: Route, ctx: RequestContext, errors: ErrorStyle, runtime: Runtime): Promise<Reply> {
  try {
    return await route.handler(ctx);
  } catch (error) {
    return failure(error, errors, runtime, ctx);
  }
}

function failure(error: unknown, errors: ErrorStyle, runtime: Runtime, where: { method: string; path: string }): Reply {
  if (error instanceof ApiError) return renderError(errors, error);
  runtime.logger.warn({ err: error, method: where.method, path: where.path }, 'sandbox handler failed');
  return errors(500, 'Internal error');
}

// A repeated query parameter keeps its first value; the contract never repeats one.
// Object.fromEntries defines own properties, so a `__proto__` parameter is just a key.
function firstValues(params: URLSearchParams): Record<string, string> {
  const seen = new Map<string, string>();
  for (const [key, value] of params) {
    if (!seen.has(key)) seen.set(key, value);
  }
  return Object.fromEntries(seen);
}
