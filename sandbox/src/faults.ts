import type { ErrorStyle, Reply } from './http.ts';
import { createRandom, type Random } from './random.ts';

/**
 * Injected failures (POST /sandbox/faults), for testing how a client survives a failing bank.
 *
 * Kinds: `status` answers the route family's error body with `status` (and Retry-After when
 * `retryAfterSeconds` is set); `stall` waits `stallMs` before handling the call; `drop` closes the
 * connection before the call is handled (nothing happens); `lose` handles the call fully (state
 * changes, idempotency record) and then closes the connection without answering, as when a
 * response is lost on the way back; `contract` breaks the real payload, or sends `body` verbatim.
 *
 * A fault applies to calls matching `method` and `path` (either may be left out), either to the
 * next `count` of them (default 1), or, with `rate` (0..1), to each with that probability until the
 * faults are cleared. A rate fault draws from its own PRNG, seeded by `seed` (or a fresh seed,
 * shown in the listing), so a run can be repeated. Faults are tried in the order they were added;
 * the first that applies wins (a rate fault that does not fire lets the next one try).
 */
export const FAULT_KINDS = ['status', 'stall', 'drop', 'lose', 'contract'] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Applies to this many matching calls, then leaves; null for a rate fault. */
  count: number | null;
  /** Applies to each matching call with this probability until cleared; null for a count fault. */
  rate: number | null;
  /** The seed of a rate fault's draws; null = a fresh one (the listing shows which). */
  seed: number | null;
  status: number;
  retryAfterSeconds: number | null;
  message: string;
  stallMs: number;
  /** For 'contract': sent verbatim when present (`undefined` = break the real payload). */
  body?: unknown;
  /** Only calls with this method count (case-insensitive); null = any. */
  method: string | null;
  /** Only calls to this exact path (query string ignored) count; null = any. */
  path: string | null;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Matching calls a count fault still applies to; null for a rate fault. */
  remaining: number | null;
  /** Calls it has applied to so far. */
  applied: number;
}

/** Injected failures, consulted once per API call in the order they were added. */
export interface FaultQueue {
  add(spec: FaultSpec): Fault;
  list(): Fault[];
  /** The fault for this call, if any; a count fault that applies is used up by one. */
  take(method: string, path: string): Fault | null;
  clear(): void;
}

export function createFaultQueue(): FaultQueue {
  let faults: Fault[] = [];
  let sequence = 0;
  const draws = new Map<string, Random>();
  const matches = (fault: Fault, method: string, path: string): boolean =>
    (fault.method === null || fault.method.toUpperCase() === method.toUpperCase()) && (fault.path === null || fault.path === path);
  const fires = (fault: Fault): boolean => fault.rate === null || draws.get(fault.id)!.next() < fault.rate;

  return {
    add(spec) {
      sequence += 1;
      const id = `flt_${sequence}`;
      const rated = spec.rate !== null;
      const seed = rated ? (spec.seed ?? Math.floor(Math.random() * 2 ** 32)) : null;
      const fault: Fault = { ...spec, seed, id, remaining: rated ? null : (spec.count ?? 1), applied: 0 };
      if (seed !== null) draws.set(id, createRandom(seed));
      faults.push(fault);
      return { ...fault };
    },
    list: () => faults.map((fault) => ({ ...fault })),
    take(method, path) {
      const fault = faults.find((candidate) => matches(candidate, method, path) && fires(candidate));
      if (!fault) return null;
      fault.applied += 1;
      if (fault.remaining !== null) {
        fault.remaining -= 1;
        if (fault.remaining === 0) faults = faults.filter((candidate) => candidate !== fault);
      }
      return { ...fault };
    },
    // Numbering restarts too, so fault ids after a reset are predictable.
    clear() {
      faults = [];
      sequence = 0;
      draws.clear();
    },
  };
}

/** The answer to a 'status' fault (or a refusal like one): the route family's error body with that status. */
export function statusFaultReply(fault: Pick<Fault, 'status' | 'message' | 'retryAfterSeconds'>, errors: ErrorStyle): Reply {
  const reply = errors(fault.status, fault.message);
  if (fault.retryAfterSeconds === null) return reply;
  return { ...reply, headers: { ...reply.headers, 'retry-after': String(fault.retryAfterSeconds) } };
}

/**
 * A deterministic contract break of a real reply: in `data` (its first element when it is
 * an array) the first key's value becomes `{ "broken": true }`. When there is nothing to
 * break that way (data null, an empty array, a scalar), `data` itself becomes
 * `{ "broken": true }`. Bodies without `data` (non-envelope families) are treated as data.
 */
export function breakContract(reply: Reply): Reply {
  const body = structuredClone(reply.body);
  const broken = { broken: true };
  const hasEnvelope = isObject(body) && 'data' in body;
  const data = hasEnvelope ? body.data : body;
  const target = Array.isArray(data) ? data[0] : data;
  const firstKey = isObject(target) ? Object.keys(target)[0] : undefined;
  if (isObject(target) && firstKey !== undefined) {
    target[firstKey] = broken;
    return { ...reply, body };
  }
  return { ...reply, body: hasEnvelope ? { ...body, data: broken } : broken };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
