import { errorTypeMap } from '@pothos/plugin-errors';
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { getNamedType, isUnionType, type GraphQLResolveInfo } from 'graphql';
import { PermissionDeniedError } from '../authorization/permissions.ts';
import { OperationAbandonedError, ProgramNotSupportedError, UpstreamRejectedError, WriteOutcomeUnknownError } from '../upstream/errors.ts';
import type { SentWrite } from '../upstream/operation.ts';
import type { MutationOutcome } from './record.ts';

/**
 * What one mutation field's resolver did, as the audit trail records it: taken where the resolver
 * ends (pothos-plugin.ts), and written there and then (plugin.ts knows who called): a record never
 * waits for the operation's end, which a client that left never lets come.
 */
export interface Attempt {
  field: string;
  targets: Record<string, string>;
  idempotencyKey: string | null;
  idempotencyKeyBy: 'client' | 'gateway' | null;
  outcome: MutationOutcome;
  /** The typed error's GraphQL type; for a thrown error, the writer fills in its code. */
  detail: string | null;
  permission: string | null;
  result: string | null;
  /** What the resolver threw, if it did. */
  thrown?: unknown;
}

/** What the resolver wrapper reads of the GraphQL context. */
interface AttemptContext {
  operation?: (() => { writes: SentWrite[] } | undefined) | undefined;
}

/** The writer of each mutation operation's attempts, by its context; present only while a mutation runs. */
const writersOf = new WeakMap<object, (attempt: Attempt) => void>();

/** From now on, each mutation field of the operation whose context this is is handed to `write` as it ends. */
export function watchAttempts(context: object, write: (attempt: Attempt) => void): void {
  writersOf.set(context, write);
}

/** Where a field starts: how many writes its operation had sent before it, so its own are told apart. */
export function attemptStart(context: object): number {
  return (context as AttemptContext).operation?.()?.writes.length ?? 0;
}

/** The resolver's end: what it returned (a success or a typed error) or threw. */
export function recordAttempt(
  context: object,
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
  ended: { value: unknown } | { thrown: unknown },
  start = 0,
): void {
  const write = writersOf.get(context);
  if (!write) return;
  const writes = (context as AttemptContext).operation?.()?.writes.slice(start) ?? [];
  const base = { field: info.fieldName, targets: targetsOf(args.input), ...keyOf(args, writes) };
  write({ ...base, ...('thrown' in ended ? thrownOutcome(ended.thrown, writes) : valueOutcome(ended.value, context, info)) });
}

type Outcome = Pick<Attempt, 'outcome' | 'detail' | 'permission' | 'result' | 'thrown'>;

/**
 * The key the write went with, and who made it: the caller's idempotencyKey, or the x-request-id the
 * gateway made for its write (the key a retry of an unknown outcome must carry). Null when nothing
 * was sent and the caller gave none.
 */
function keyOf(args: Record<string, unknown>, writes: readonly SentWrite[]): Pick<Attempt, 'idempotencyKey' | 'idempotencyKeyBy'> {
  if (typeof args.idempotencyKey === 'string') return { idempotencyKey: args.idempotencyKey, idempotencyKeyBy: 'client' };
  const sent = writes[0]?.requestId;
  return sent === undefined ? { idempotencyKey: null, idempotencyKeyBy: null } : { idempotencyKey: sent, idempotencyKeyBy: 'gateway' };
}

/**
 * A field that threw. When it had sent a write, the bank's answer to it is the outcome, whatever
 * stopped the field after (its client leaving before the read-back): the bank applied it or not.
 * When the client's leaving stopped it before any write went, nothing was sent.
 */
function thrownOutcome(error: unknown, writes: readonly SentWrite[]): Outcome {
  // A refusal thrown before the errors plugin could make it a result (scope-auth's, on a field with no union) is still a refusal.
  if (error instanceof PermissionDeniedError)
    return { outcome: 'forbidden', detail: 'FORBIDDEN', permission: error.permission, result: null };
  const last = writes.at(-1);
  if (last) return { outcome: bankOutcome(last.status), detail: null, permission: null, result: null, thrown: error };
  if (error instanceof OperationAbandonedError) return { outcome: 'not_sent', detail: null, permission: null, result: null };
  return { outcome: 'error', detail: null, permission: null, result: null, thrown: error };
}

/** What the bank's HTTP status to a write says happened; no status: no answer came. */
function bankOutcome(status: number | undefined): MutationOutcome {
  // A 429 or a 5xx applied nothing the bank would say so about: no usable answer, as for the caller.
  if (status === undefined || status === 429 || status >= 500) return 'error';
  return status < 400 ? 'success' : 'bank_rejection';
}

function valueOutcome(value: unknown, context: object, info: GraphQLResolveInfo): Outcome {
  // The errors plugin answers a typed error as a proxy of it, and keeps its class here.
  const errorClass = (typeof value === 'object' && value !== null ? errorTypeMap.get(value) : undefined) as
    (new (...args: never[]) => Error) | undefined;
  if (!errorClass) return { outcome: 'success', detail: null, permission: null, result: resultIdOf(value) };
  const detail = unionMemberOf(value, context, info);
  const is = (base: new (...args: never[]) => Error) => errorClass === base || errorClass.prototype instanceof base;
  if (is(PermissionDeniedError))
    return { outcome: 'forbidden', detail, permission: (value as PermissionDeniedError).permission, result: null };
  if (is(WriteOutcomeUnknownError)) return { outcome: 'outcome_unknown', detail, permission: null, result: null };
  const rejected = is(UpstreamRejectedError) || is(ProgramNotSupportedError);
  return { outcome: rejected ? 'bank_rejection' : 'typed_error', detail, permission: null, result: null };
}

/** The GraphQL type a returned error is answered as: the member its field's result union resolves it to. */
function unionMemberOf(value: unknown, context: object, info: GraphQLResolveInfo): string | null {
  const union = getNamedType(info.returnType);
  const member = isUnionType(union) ? union.resolveType?.(value, context, info, union) : undefined;
  return typeof member === 'string' ? member : null;
}

/**
 * The bank ids the input names: every `...Id` field (and `onBehalfOf`), a global ID read back to the
 * bank's id. Nothing else of the input is kept: no amount, no name, no secret.
 */
function targetsOf(input: unknown): Record<string, string> {
  if (typeof input !== 'object' || input === null) return {};
  const targets: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && (key.endsWith('Id') || key === 'onBehalfOf')) targets[key] = bankIdOf(value);
  }
  return targets;
}

/** A global ID this gateway made (it round-trips) → the bank id it carries; anything else is the bank's id already. */
function bankIdOf(value: string): string {
  try {
    const { typename, id } = decodeGlobalID(value);
    return /^[A-Z][A-Za-z0-9]*$/.test(typename) && encodeGlobalID(typename, id) === value ? id : value;
  } catch {
    return value;
  }
}

/** The bank id of what a successful write answered with: a record's own id, or a bare id. */
function resultIdOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string')
    return (value as { id: string }).id;
  return null;
}
