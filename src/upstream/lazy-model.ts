import type { z } from 'zod';
import type { ContractIssue } from './errors.ts';
import { INVALID, planOf, type LazyField, type NestedObject, type ObjectPlan } from './lazy-plans.ts';

/**
 * A payload read as the graph reads it: each field parsed by its own zod model when it is first
 * read, once, and kept (a cached record keeps what was parsed). A field that breaks its rule fails
 * alone, when it is read, with the contract error `fail` throws; a field nobody reads costs nothing.
 * Arrays, single() and absent values are settled as soon as the field holding them is read; objects
 * become views whose own fields wait (lazy-plans.ts says which models can be read so). Leaves
 * (text, amounts, dates, codes) are read by their plan without zod when they keep their rule, and by
 * zod when they break it, so that what a failure says is zod's.
 *
 * A view is a Proxy over a plain object that keeps what was read: a class with getters on its
 * prototype would be cheaper to make, but spread (`{ ...record }`), Object.keys, JSON.stringify and
 * test equality would see none of its fields. Through the Proxy they see every field, parsing those
 * not read yet (a broken one throws there, as the whole parse did): the code reads fields through or
 * uses `extended`, and ESLint's gateway/no-lazy-record-spread reports a spread of a bank record.
 * structuredClone refuses Proxies: nothing clones upstream records. Making a view costs a few
 * hundred nanoseconds; parsing a card's 29 fields whole took 7.5 µs.
 */

export interface LazyReading {
  /** Throws the contract error of these issues (paths into the whole body), logged as the caller sees fit. */
  fail(issues: ContractIssue[]): never;
}

/** `raw` (the envelope's `data`) read lazily by `model`: the same value, typed as `model` parses it. */
export function readLazily<T>(model: z.ZodType<T>, raw: unknown, reading: LazyReading): T {
  return read(model, raw, 'data', undefined, reading) as T;
}

/** zod issues → dotted paths into the whole body (`data[0].field`), as an operator would look for them. */
export function contractIssues(error: z.ZodError, at = 'data'): ContractIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`), at),
    message: issue.message,
  }));
}

/** Where a value sits, made only when it is needed (a view, a list, an error): most reads need none. */
function join(parent: string, segment: string | number | undefined): string {
  if (segment === undefined) return parent;
  return typeof segment === 'number' ? `${parent}[${segment}]` : `${parent}.${segment}`;
}

function read(model: z.ZodType, raw: unknown, parent: string, segment: string | number | undefined, reading: LazyReading): unknown {
  const plan = planOf(model);
  switch (plan.kind) {
    case 'object':
      if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
        return view(plan, raw as Record<string, unknown>, join(parent, segment), reading);
      break;
    case 'array':
      if (Array.isArray(raw)) return elements(plan.element, raw, join(parent, segment), reading);
      break;
    case 'single':
      if (Array.isArray(raw) && raw.length === 1) return read(plan.element, raw[0], join(parent, segment), 0, reading);
      break;
    case 'absent-as':
      return raw === undefined || raw === null ? plan.absent() : read(plan.inner, raw, parent, segment, reading);
    case 'prepared':
      return read(plan.inner, plan.prepare(raw), parent, segment, reading);
    case 'field': {
      const whole = read(plan.inner, raw, parent, segment, reading);
      return (whole as Record<string, unknown>)[plan.key];
    }
    case 'leaf': {
      const value = plan.read(raw);
      if (value !== INVALID) return value;
      break;
    }
  }
  // Not lazily readable, or not the shape its plan needs: zod says what is wrong with it.
  return whole(model, raw, parent, segment, reading);
}

function whole(model: z.ZodType, raw: unknown, parent: string, segment: string | number | undefined, reading: LazyReading): unknown {
  const parsed = model.safeParse(raw);
  return parsed.success ? parsed.data : reading.fail(contractIssues(parsed.error, join(parent, segment)));
}

function elements(element: z.ZodType, raw: readonly unknown[], path: string, reading: LazyReading): unknown[] {
  const list = new Array<unknown>(raw.length);
  for (let i = 0; i < raw.length; i++) list[i] = read(element, raw[i], path, i, reading);
  return list;
}

/**
 * `record` with `extra`'s fields beside its own, without reading it: its fields are read through
 * (parsed when first read, as on the record itself), where a spread (`{ ...record, ...extra }`)
 * would parse every one of them at once. A view (a lazy record) gives another view of the same
 * payload, holding what was read of it so far and `extra`, whose keys win over the model's (none is
 * undefined); anything else gets `extra` on an object whose prototype is `record`. Not an object
 * whose prototype is a view: each such object is a prototype V8 has not seen, and a list of a
 * hundred took a direct debit screen's most CPU of any function of ours.
 */
export function extended<T extends object, E extends object>(record: T, extra: E): T & E {
  const target = (record as { [TARGET]?: Target })[TARGET];
  if (target !== undefined) return new Proxy(Object.assign({}, target, extra), VIEW) as T & E;
  return Object.assign(Object.create(record) as T, extra);
}

const STATE = Symbol('lazy record');
/** What a view's `[TARGET]` reads: its target, for `extended` alone. */
const TARGET = Symbol('lazy record target');

interface ViewState {
  raw: Record<string, unknown>;
  plan: ObjectPlan;
  path: string;
  reading: LazyReading;
  /** The fields that broke their rule, each with its error, thrown again at every read. */
  failures: Map<string, unknown> | undefined;
}

/** What was read, under the view's keys, beside the state; what the graph sets (Pothos' marks) lands here too. */
type Target = Record<PropertyKey, unknown> & { [STATE]: ViewState };

function view(plan: ObjectPlan, raw: Record<string, unknown>, path: string, reading: LazyReading): object {
  const target: Target = { [STATE]: { raw, plan, path, reading, failures: undefined } };
  return new Proxy(target, VIEW);
}

const VIEW: ProxyHandler<Target> = {
  get(target, key) {
    const state = target[STATE];
    const field = state.plan.fields.get(key);
    if (field !== undefined) return valueOf(target, state, field);
    if (key === TARGET) return target;
    return key === STATE ? undefined : target[key];
  },
  has: (target, key) => key !== STATE && (target[STATE].plan.fields.has(key) || key in target),
  ownKeys(target) {
    const { plan } = target[STATE];
    const others = Reflect.ownKeys(target).filter((key) => key !== STATE && !plan.fields.has(key));
    return others.length === 0 ? [...plan.keys] : [...plan.keys, ...others];
  },
  getOwnPropertyDescriptor(target, key) {
    if (key === STATE) return undefined;
    const state = target[STATE];
    const field = state.plan.fields.get(key);
    if (field === undefined) return Reflect.getOwnPropertyDescriptor(target, key);
    return { value: valueOf(target, state, field), writable: true, enumerable: true, configurable: true };
  },
};

function valueOf(target: Target, state: ViewState, field: LazyField): unknown {
  const kept = target[field.key];
  if (kept !== undefined) return kept;
  const { failures } = state;
  if (failures?.has(field.key)) throw failures.get(field.key);
  try {
    const value = settle(target, state, field);
    target[field.key] = value;
    return value;
  } catch (error) {
    (state.failures ??= new Map()).set(field.key, error);
    throw error;
  }
}

function settle(target: Target, state: ViewState, field: LazyField): unknown {
  if (field.preferring !== undefined) {
    const preferred = valueOf(target, state, state.plan.fields.get(field.preferring)!);
    if (preferred !== null && preferred !== undefined) return preferred;
  }
  const { within } = field;
  if (within === undefined) return read(field.model, state.raw[field.source], state.path, field.source, state.reading);
  const holder = nestedObject(state, within);
  return read(field.model, holder[field.source], join(state.path, within.source), field.source, state.reading);
}

/** The bank's object a lifted field sits in (flattenedPlan); one that is no object fails as its model says. */
function nestedObject(state: ViewState, within: NestedObject): Record<string, unknown> {
  const raw = state.raw[within.source];
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  // An object's model takes nothing else: its own parse says what is wrong.
  whole(within.model, raw, state.path, within.source, state.reading);
  throw new Error(`${join(state.path, within.source)}: an object's model took a value that is none`);
}
