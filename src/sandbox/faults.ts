import type { ErrorStyle, Reply } from './http.ts';

export type FaultKind = 'status' | 'stall' | 'drop' | 'contract';

export interface FaultSpec {
  kind: FaultKind;
  count: number;
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
  /** Matching calls this fault still applies to. */
  remaining: number;
}

/** Injected failures, consumed one per matching API call in the order they were added. */
export interface FaultQueue {
  add(spec: FaultSpec): Fault;
  list(): Fault[];
  /** The fault for this call, if any; consuming it decrements its remaining count. */
  take(method: string, path: string): Fault | null;
  clear(): void;
}

export function createFaultQueue(): FaultQueue {
  let faults: Fault[] = [];
  let sequence = 0;
  const matches = (fault: Fault, method: string, path: string): boolean =>
    (fault.method === null || fault.method.toUpperCase() === method.toUpperCase()) &&
    (fault.path === null || fault.path === path);

  return {
    add(spec) {
      sequence += 1;
      const fault: Fault = { ...spec, id: `flt_${sequence}`, remaining: spec.count };
      faults.push(fault);
      return { ...fault };
    },
    list: () => faults.map((fault) => ({ ...fault })),
    take(method, path) {
      const fault = faults.find((candidate) => matches(candidate, method, path));
      if (!fault) return null;
      fault.remaining -= 1;
      if (fault.remaining === 0) faults = faults.filter((candidate) => candidate !== fault);
      return { ...fault };
    },
    // Numbering restarts too, so fault ids after a reset are predictable.
    clear() {
      faults = [];
      sequence = 0;
    },
  };
}

/** The answer to a 'status' fault: the route family's error body with that status. */
export function statusFaultReply(fault: Fault, errors: ErrorStyle): Reply {
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
