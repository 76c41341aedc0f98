/**
 * What one cell of the matrix saw, whatever client drove it: the results the client handed over
 * (raw payloads, or the merged results of a client that merges them itself), how the stream ended,
 * and a refusal's code. Every way in (ways.ts) reports in this shape, so one judge (judge.ts) reads all.
 */

export interface ExecutionPayload {
  data?: unknown;
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[];
  incremental?: readonly { data?: unknown; items?: readonly unknown[]; path: readonly (string | number)[]; errors?: readonly unknown[] }[];
  hasNext?: boolean;
}

export interface Observed {
  /** Each result as the client handed it over, in order. */
  results: ExecutionPayload[];
  /** The client merges incremental payloads itself (Apollo Client, urql, GraphiQL's executor): each result is whole so far. */
  merged: boolean;
  /** The stream was still open when the cell let go of it (a live query, a subscription). */
  leftOpen: boolean;
  /** A refusal the client reported as an error rather than a result (a status, a socket's `error`). */
  refusal?: { code: string | undefined; message: string; status?: number | undefined };
  /** Results on the wire in the last HTTP exchange, for a client that merges what it hands over. */
  wireResults?: number | undefined;
  /** The last HTTP status of the exchange, where there was one. */
  status?: number | undefined;
  /** A persisted query's hash alone was answered (no text sent with it), where the cell can tell. */
  answeredByHashAlone?: boolean | undefined;
}

/** The data of a stream of payloads, its incremental parts put in place (the 2022-08-24 format Yoga sends). */
export function mergedData(payloads: readonly ExecutionPayload[], merged: boolean): unknown {
  if (merged) return payloads.at(-1)?.data;
  let data: unknown = undefined;
  for (const payload of payloads) {
    if (payload.data !== undefined) data = structuredClone(payload.data);
    for (const part of payload.incremental ?? []) {
      const target = at(data, part.path.slice(0, part.items ? -1 : undefined));
      if (part.items) (target as unknown[]).splice(part.path.at(-1) as number, 0, ...structuredClone(part.items));
      else if (part.data && target) deepMerge(target as Record<string, unknown>, structuredClone(part.data) as Record<string, unknown>);
    }
  }
  return data;
}

/** Every error of the payloads, incremental parts' included. */
export function errorsOf(payloads: readonly ExecutionPayload[]): { message: string; extensions?: Record<string, unknown> }[] {
  return payloads.flatMap((payload) => [
    ...(payload.errors ?? []),
    ...((payload.incremental ?? []).flatMap((part) => part.errors ?? []) as { message: string }[]),
  ]);
}

function at(value: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isObject(existing) && isObject(value)) deepMerge(existing, value);
    else if (Array.isArray(existing) && Array.isArray(value))
      value.forEach((item, index) =>
        isObject(existing[index]) && isObject(item) ? deepMerge(existing[index], item) : (existing[index] = item),
      );
    else target[key] = value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The data with every `__typename` left out: Apollo Client and urql's cache add it to every selection, the other clients do not. */
export function withoutTypenames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypenames);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '__typename')
      .map(([key, item]) => [key, withoutTypenames(item)]),
  );
}
