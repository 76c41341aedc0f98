import { InputValidationError, type StandardSchemaV1 } from '@pothos/plugin-validation';
import { createContextCache } from '@pothos/core';
import { clearAllDataLoaders } from '@pothos/plugin-dataloader';
import { decodeGlobalID, encodeGlobalID, resolveOffsetConnection } from '@pothos/plugin-relay';
import DataLoader from 'dataloader';
import { z } from 'zod';
import { builder } from '../builder.ts';
import type { GatewayContext } from '../context.ts';
import { PermissionDeniedError } from '../permissions.ts';
import { pageSizeProblem } from '../security/page-size.ts';
import { LinkedRecordNotFoundError, ProgramNotSupportedError, UpstreamRejectedError } from '../upstream/errors.ts';
import { bankIdProblem } from '../upstream/ids.ts';
import type { Address } from '../upstream/models.ts';
import { fetchWindow, MAX_UPSTREAM_PAGE_SIZE, type PageSlice } from '../upstream/paging.ts';
import { loaderBatch } from './loader-batch.ts';

/** Shared shapes of the graph: Money, typed mutation errors, date ranges and paged connections. */

export interface MoneyShape {
  amount: string;
  currency: string;
}

export const Money = builder.objectRef<MoneyShape>('Money').implement({
  description: 'An amount of money: an exact decimal amount and its currency.',
  fields: (t) => ({
    amount: t.expose('amount', { type: 'Decimal', nullable: false, description: 'The amount as exact decimal text.' }),
    currency: t.expose('currency', { type: 'Currency', nullable: false, description: 'ISO 4217 currency of the amount.' }),
  }),
});

export function money(amount: string, currency: string): MoneyShape {
  return { amount, currency };
}

// --- Typed mutation errors ---------------------------------------------------------------------

export const MutationError = builder.interfaceRef<Error>('MutationError').implement({
  description: 'An expected failure of a mutation, returned as data rather than thrown.',
  fields: (t) => ({
    message: t.exposeString('message', { nullable: false, description: 'What went wrong, for people.' }),
  }),
});

const FieldIssue = builder.objectRef<StandardSchemaV1.Issue>('FieldIssue').implement({
  description: 'One rule an input value broke.',
  fields: (t) => ({
    path: t.stringList({
      nullable: false,
      description: 'Path of the offending value from the field arguments, e.g. ["input", "requiredFeatures", "0", "currency"].',
      resolve: (issue) => issue.path?.map((part) => String(typeof part === 'object' ? part.key : part)) ?? [],
    }),
    message: t.exposeString('message', { nullable: false, description: 'The rule that was broken.' }),
    upstreamPath: t.string({
      description:
        "Where the bank's own rule set names this field: a dotted path into its request body, e.g. \"beneficiary.address.postcode\". Null for the gateway's own rules.",
      resolve: (issue) => (issue as UpstreamRuleIssue).upstreamPath ?? null,
    }),
  }),
});

/** An input issue found by a rule of the bank's, which names the field by its own dotted path. */
export interface UpstreamRuleIssue extends StandardSchemaV1.Issue {
  upstreamPath?: string;
}

builder.objectType(InputValidationError, {
  name: 'ValidationError',
  description: 'The input broke one or more rules; nothing was sent upstream and nothing changed.',
  interfaces: [MutationError],
  fields: (t) => ({
    issues: t.field({
      type: [FieldIssue],
      nullable: false,
      description: 'Every broken rule, each naming its field.',
      resolve: (error) => [...error.issues],
    }),
  }),
});

builder.objectType(UpstreamRejectedError, {
  name: 'UpstreamRejection',
  description: 'The bank refused the request (a business rule or input it did not accept).',
  interfaces: [MutationError],
  fields: (t) => ({
    upstreamStatus: t.exposeInt('status', { nullable: false, description: 'Status code the bank answered with.' }),
    upstreamMessage: t.exposeString('upstreamMessage', { description: "The bank's own message." }),
    requestId: t.exposeString('requestId', {
      nullable: false,
      description: 'The x-request-id the request carried: quote it to the bank when asking about this call.',
    }),
  }),
});

builder.objectType(ProgramNotSupportedError, {
  name: 'ProgramNotSupported',
  description: "The client's program (e.g. Banking or Cards) does not offer this operation; nothing was done.",
  interfaces: [MutationError],
  fields: (t) => ({
    program: t.exposeString('program', { nullable: false, description: 'The program the bank says the client is on.' }),
    requestId: t.exposeString('requestId', { nullable: false, description: 'The x-request-id the request carried.' }),
  }),
});

builder.objectType(PermissionDeniedError, {
  name: 'Forbidden',
  description:
    'The caller may not run this mutation: it lacks the permission it needs (docs/permissions.md). Nothing was sent to the bank and nothing changed.',
  interfaces: [MutationError],
  fields: (t) => ({
    permission: t.exposeString('permission', { nullable: false, description: 'The permission the mutation needs, e.g. payouts:write.' }),
  }),
});

/** The errors every mutation may return as data. */
export const MUTATION_ERRORS = [PermissionDeniedError, InputValidationError, ProgramNotSupportedError, UpstreamRejectedError];

/** Builds a validation failure that the errors plugin returns as a ValidationError result. */
export function validationError(path: string[], message: string): InputValidationError {
  return validationErrors([{ path, message }]);
}

export function validationErrors(issues: UpstreamRuleIssue[]): InputValidationError {
  return new InputValidationError({ issues });
}

/** For loaders over reads that answer null for an unknown id: keep the found ones, `sort` maps the rest to null. */
export function found<T>(items: (T | null)[]): T[] {
  return items.filter((item): item is T => item !== null);
}

const IDEMPOTENCY_KEY_TEXT =
  'Makes the write safe to repeat: sent upstream as x-request-id, so a retried request with the same key and input is applied once. Any unique string up to 128 characters, e.g. a UUID.';

/** The optional idempotencyKey argument; `description` where an API takes no x-request-id. */
export const idempotencyKeyArg = (description: string = IDEMPOTENCY_KEY_TEXT) =>
  builder.args((t) => ({
    idempotencyKey: t.string({
      description,
      validate: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
    }),
  }));

// --- Date ranges -------------------------------------------------------------------------------

export const DateRangeInput = builder.inputType('DateRangeInput', {
  description:
    'A range of calendar days, both ends included and both required: for the lists whose bank endpoint takes the two dates together (account transactions, balance history, card transactions). The upstream limits how long it may be.',
  fields: (t) => ({
    from: t.field({ type: 'Date', required: true, description: 'First day of the range.' }),
    to: t.field({ type: 'Date', required: true, description: 'Last day of the range.' }),
  }),
});

/** For the lists whose endpoint takes either date alone (mandates, direct debits). */
export const OpenDateRangeInput = builder.inputType('OpenDateRangeInput', {
  description:
    'A range of calendar days, both ends included; either end may be left out (the argument says what the bank then answers).',
  fields: (t) => ({
    from: t.field({ type: 'Date', description: 'First day, included; left out, the range is open at the start.' }),
    to: t.field({ type: 'Date', description: 'Last day, included; left out, the range is open at the end.' }),
  }),
});

/** For wallet history, whose endpoint takes either bound alone, as a day or a date-time (Document 2, 4.3). */
export const TimeWindowInput = builder.inputType('TimeWindowInput', {
  description: 'A window of time, both ends included; each end is a whole day or an instant, and either may be left out (open on that side).',
  fields: (t) => ({
    from: t.field({ type: 'DateOrDateTime', description: 'Start: a day (from its first second) or an instant; left out, open at the start.' }),
    to: t.field({ type: 'DateOrDateTime', description: 'End: a day (to its last second) or an instant; left out, open at the end.' }),
  }),
});

const DAY_MS = 86_400_000;

/** A bound as an instant: a day from its first second or, as the end, to its last. */
const boundStart = (text: string) => Date.parse(text.length === 10 ? `${text}T00:00:00Z` : `${text}Z`);
const boundEnd = (text: string) => Date.parse(text.length === 10 ? `${text}T23:59:59Z` : `${text}Z`);

/** Windows with optional ends: when both are given, the end must not come before the start. */
export const windowOrderRule = z
  .object({ from: z.string().nullish(), to: z.string().nullish() })
  .nullish()
  .superRefine((window, ctx) => {
    if (window?.from && window.to && boundStart(window.from) > boundEnd(window.to)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

/** Range rules checked before any upstream call, so a bad range costs no request. */
export function dateRangeRule(maxDays: number) {
  return z
    .object({ from: z.string(), to: z.string() })
    .nullish()
    .superRefine((range, ctx) => {
      if (!range) return;
      const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS;
      if (days < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
      else if (days > maxDays) ctx.addIssue({ code: 'custom', path: ['to'], message: `date range must not exceed ${maxDays} days` });
    });
}

/**
 * How a paged list is ordered. The documents give no order for any list and the gateway cannot sort
 * across pages it has not read, so the descriptions say what is true: the bank's order.
 */
export const BANK_ORDER = "In the bank's order (the documents give none; the sandbox lists newest first).";

/**
 * A whole list the gateway holds at once, sorted by `at`: `latest` first or `earliest` first.
 * Records without a time come last, in the bank's order.
 */
export function sortedByTime<T>(items: readonly T[], at: (item: T) => Date | string | null | undefined, first: 'latest' | 'earliest'): T[] {
  const time = (item: T) => {
    const value = at(item);
    return value == null ? Number.NaN : new Date(value).getTime();
  };
  return items.toSorted((a, b) => {
    const [x, y] = [time(a), time(b)];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number(Number.isNaN(x)) - Number(Number.isNaN(y));
    return first === 'latest' ? y - x : x - y;
  });
}

// --- Paged connections -------------------------------------------------------------------------

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  before?: string | null;
  after?: string | null;
}

/**
 * `first`/`last` out of bounds are refused, not clamped: a client asking for 500 items must not
 * take the 100 it got for the whole list. (The gateway refuses them before execution already, see
 * security/operation-limits.ts; this holds for any other caller of the schema.)
 */
function pageArgs(args: ConnectionArgs): ConnectionArgs {
  const issues = (['first', 'last'] as const).flatMap((name) => {
    const value = args[name];
    const problem = value == null ? undefined : pageSizeProblem(value);
    return problem ? [{ path: [name], message: problem }] : [];
  });
  if (issues.length > 0) throw validationErrors(issues);
  return args;
}

/** A Relay connection over a paged upstream list; `fetchPage` gets the 1-based page and its size. */
export function pagedConnection<T>(args: ConnectionArgs, fetchPage: (slice: PageSlice) => Promise<T[]>) {
  return resolveOffsetConnection({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE }, ({ offset, limit }) =>
    fetchWindow(offset, limit, fetchPage),
  );
}

/**
 * A Relay connection over an upstream list taken by `offset` and `limit` (at most 100 a call): one
 * call per window, two when the window plus the look-ahead item exceeds 100.
 */
export function offsetConnection<T>(args: ConnectionArgs, fetchRange: (range: { offset: number; limit: number }) => Promise<T[]>) {
  return resolveOffsetConnection({ args: pageArgs(args), maxSize: MAX_UPSTREAM_PAGE_SIZE }, async ({ offset, limit }) => {
    const items: T[] = [];
    for (let start = offset; start < offset + limit; start += MAX_UPSTREAM_PAGE_SIZE) {
      const size = Math.min(MAX_UPSTREAM_PAGE_SIZE, offset + limit - start);
      const range = await fetchRange({ offset: start, limit: size });
      items.push(...range);
      // A short answer is the end of the list.
      if (range.length < size) break;
    }
    return items;
  });
}

// --- Ids ---------------------------------------------------------------------------------------

/** Adds the bank id rule's issue for each part of `id` that breaks it (src/upstream/ids.ts). */
function checkBankIdParts(parts: string[], ctx: z.RefinementCtx): void {
  const problem = parts.map(bankIdProblem).find(Boolean);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

/** The bank's own id as an argument: checked before any call, the error naming the field. */
export const bankIdRule = z.string().superRefine((id, ctx) => checkBankIdParts([id], ctx));

/**
 * A root read's id argument: a global ID of `typename` or the bank's own id (see upstreamIdFrom);
 * the bank id it carries must be one (src/upstream/ids.ts), else the argument is named in the error.
 */
export function globalIdRule(typename: string) {
  return z.string().superRefine((value, ctx) => checkBankIdParts([upstreamIdFrom(value, typename)], ctx));
}

/**
 * The key a mutation input names, given as the record's global ID (from `<Type>.id`) or as the
 * bank's own id, as root reads take them. Checked before any call: a global ID of another type or
 * an id that breaks the bank id rule is a ValidationError naming the input field, inside the
 * mutation's result. A composite key (`actingFor~part~part`, direct debit records) has `parts` bank
 * ids; a bare bank id stands for one part, acting for no connected account.
 */
export function bankIdIn(value: string, path: string[], typename: string, parts?: number): string {
  const decoded = decodedGlobalId(value);
  if (decoded !== null && decoded.typename !== typename) {
    throw validationError(path, `is the global ID of ${withArticle(decoded.typename)}, not of ${withArticle(typename)}: give its global ID or the bank's own id`);
  }
  const key = decoded?.id ?? (parts === undefined ? value : `~${value}`);
  if (parts === undefined) {
    const problem = bankIdProblem(key);
    if (problem) throw validationError(path, problem);
    return key;
  }
  const [actingFor = '', ...ids] = key.split('~');
  if (ids.length !== parts) {
    throw validationError(path, `needs the ${typename}'s global ID (\`${typename}.id\`): it carries the ${parts - 1} other id(s) the bank needs with it`);
  }
  const problem = [...(actingFor ? [actingFor] : []), ...ids].map(bankIdProblem).find(Boolean);
  if (problem) throw validationError(path, problem);
  return key;
}

const withArticle = (name: string): string => `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;

/** `{ typename, id }` when `value` is a global ID this gateway made (it round-trips), else null. */
function decodedGlobalId(value: string): { typename: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(value);
    return /^[A-Z][A-Za-z0-9]*$/.test(decoded.typename) && encodeGlobalID(decoded.typename, decoded.id) === value ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * Reads by id take a global ID or the bank's own id, so links and support tickets both work:
 * anything that is not a global ID of `typename` is taken as the bank's id.
 */
export function upstreamIdFrom(id: string, typename: string): string {
  const decoded = decodedGlobalId(id);
  return decoded !== null && decoded.typename === typename ? decoded.id : id;
}

/**
 * The description of an input field naming a record of `typename` (a plain `ID`, read by bankIdIn):
 * not a Relay globalID field, so a bank id or a malformed value is the mutation's typed
 * ValidationError rather than a top-level "Invalid global ID".
 */
export function recordIdDescription(typename: string, what: string): string {
  return `${what}: its global ID (\`${typename}.id\`) or the bank's own id.`;
}

/** What a link can point at: a Pothos loadable node ref, with its per-request loader. */
interface LinkTarget<K> {
  name: string;
  getDataloader(context: GatewayContext): { load(key: K): Promise<unknown> };
}

/**
 * Resolves a link to the record another record names by id (a card's cardholder, a payout's quote).
 * The id the bank sent is always a field of its own (`<link>UpstreamId`, see docs/frontend.md "Schema
 * conventions"), so it survives when the record cannot be read; a record the bank does not find is
 * an error on the link (NOT_FOUND with the type and id), never a silent null. Returns the key, which
 * Pothos then takes from the loader's cache.
 */
export async function readLink<K>(target: LinkTarget<K>, key: K | null | undefined, upstreamId: string | null | undefined, context: GatewayContext): Promise<K | null> {
  if (key == null || upstreamId == null) return null;
  const record = await target.getDataloader(context).load(key);
  if (record == null) throw new LinkedRecordNotFoundError(target.name, upstreamId);
  return key;
}

/**
 * A per-request DataLoader for reads that are not a Node of their own (a card's detail, a
 * cardholder's wallet): fetched once per key per request, and only when a field asks for them.
 * `name` names its batches in traces.
 */
export function perRequestLoader<K, V>(name: string, load: (key: K, context: GatewayContext) => Promise<V>) {
  const batch = loaderBatch(name, (keys: readonly K[], context: GatewayContext) =>
    Promise.all(keys.map((key) => load(key, context).catch((error: unknown) => error as Error))),
  );
  return createContextCache((context: GatewayContext) => {
    const loader = new DataLoader<K, V>((keys) => batch(keys, context));
    requestLoaders(context).add(loader);
    return loader;
  });
}

const requestLoaders = createContextCache((_context: GatewayContext) => new Set<{ clearAll(): unknown }>());

/**
 * Forgets every read cached for this context (Pothos' loaders and ours). A subscription keeps one
 * context for its whole life: each event must resolve its linked fields afresh, not from the
 * first event's cache.
 */
export function forgetRequestReads(context: GatewayContext): void {
  clearAllDataLoaders(context);
  for (const loader of requestLoaders(context)) loader.clearAll();
}

// --- Addresses ---------------------------------------------------------------------------------

/** Document 2's address object, as read (every member may be missing) and as written. */
export const AddressType = builder.objectRef<Address>('Address').implement({
  description: 'A postal address (Document 2\'s address object).',
  fields: (t) => ({
    line1: t.exposeString('line1', { description: 'First line: street and number.' }),
    line2: t.exposeString('line2', { description: 'Second line, if any.' }),
    city: t.exposeString('city', { description: 'City.' }),
    state: t.exposeString('state', { description: 'State or region.' }),
    postcode: t.exposeString('postcode', { description: 'Postal code.' }),
    country: t.expose('country', { type: 'CountryCode', description: 'Country.' }),
  }),
});

/** Text that must say something. */
export const notBlank = z.string().trim().min(1, 'must not be blank');

export const AddressInput = builder.inputType('AddressInput', {
  description: 'A postal address; given as a whole, so every member but line2 is required.',
  fields: (t) => ({
    line1: t.string({ required: true, description: 'First line: street and number.', validate: notBlank }),
    line2: t.string({ description: 'Second line.' }),
    city: t.string({ required: true, description: 'City.', validate: notBlank }),
    state: t.string({ required: true, description: 'State or region.', validate: notBlank }),
    postcode: t.string({ required: true, description: 'Postal code.', validate: notBlank }),
    country: t.field({ type: 'CountryCode', required: true, description: 'Country.' }),
  }),
});

/** Today as YYYY-MM-DD (UTC), for "today or later" and "in the past" rules. */
export const today = () => new Date().toISOString().slice(0, 10);

// --- Batched reads by id -----------------------------------------------------------------------

/** Up to this many keys, one read each; past it, the upstream's list is read first. */
export const LIST_BATCH_THRESHOLD = 4;
const LIST_PAGE_SIZE = 100;

/**
 * A loader's batch: one read per key for a few keys; for more, pages of the upstream's list (newest
 * first on the sandbox, where the keys of one screen usually are) until every key is found, the list ends, or a
 * page brings none of them; then single reads for what the list did not hold. At worst that is one
 * call more than a read each; at best one call for up to a hundred keys.
 */
export async function loadByIdOrList<T>(
  ids: readonly string[],
  read: { one: (id: string) => Promise<T | null>; page: (page: number, size: number) => Promise<T[]>; idOf: (item: T) => string },
): Promise<T[]> {
  if (ids.length <= LIST_BATCH_THRESHOLD) return found(await Promise.all(ids.map(read.one)));
  const wanted = new Set(ids);
  const byId = new Map<string, T>();
  for (let page = 1; page < ids.length && byId.size < wanted.size; page++) {
    const items = await read.page(page, LIST_PAGE_SIZE);
    const before = byId.size;
    for (const item of items) if (wanted.has(read.idOf(item))) byId.set(read.idOf(item), item);
    if (items.length < LIST_PAGE_SIZE || byId.size === before) break;
  }
  const missing = ids.filter((id) => !byId.has(id));
  const rest = found(await Promise.all(missing.map(read.one)));
  return [...byId.values(), ...rest];
}
