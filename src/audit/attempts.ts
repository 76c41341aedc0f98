import { errorTypeMap } from '@pothos/plugin-errors';
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { getNamedType, isUnionType, type GraphQLResolveInfo } from 'graphql';
import { PermissionDeniedError } from '../permissions.ts';
import { ProgramNotSupportedError, UpstreamRejectedError } from '../upstream/errors.ts';
import type { AuditRecord } from './record.ts';

/**
 * What one mutation field's resolver did, as the audit trail records it: taken where the resolver
 * runs (pothos-plugin.ts), turned into a record when the operation is done (plugin.ts), which knows
 * who called and what every error became.
 */
export interface Attempt {
  field: string;
  targets: Record<string, string>;
  idempotencyKey: string | null;
  outcome: AuditRecord['outcome'];
  /** The typed error's GraphQL type; for a thrown error, filled in from the answer's error code. */
  detail: string | null;
  permission: string | null;
  result: string | null;
}

/** The attempts of one operation's context, by response key; present only while a mutation runs. */
const attemptsOf = new WeakMap<object, Map<string, Attempt>>();

export function openAttempts(context: object): Map<string, Attempt> {
  const attempts = new Map<string, Attempt>();
  attemptsOf.set(context, attempts);
  return attempts;
}

/** The resolver's end: what it returned (a success or a typed error) or threw. */
export function recordAttempt(context: object, info: GraphQLResolveInfo, args: Record<string, unknown>, ended: { value: unknown } | { thrown: unknown }): void {
  const attempts = attemptsOf.get(context);
  if (!attempts) return;
  const base = { field: info.fieldName, targets: targetsOf(args.input), idempotencyKey: typeof args.idempotencyKey === 'string' ? args.idempotencyKey : null };
  attempts.set(String(info.path.key), { ...base, ...('thrown' in ended ? thrownOutcome(ended.thrown) : valueOutcome(ended.value, context, info)) });
}

type Outcome = Pick<Attempt, 'outcome' | 'detail' | 'permission' | 'result'>;

function thrownOutcome(error: unknown): Outcome {
  // A refusal thrown before the errors plugin could make it a result (scope-auth's, on a field with no union) is still a refusal.
  if (error instanceof PermissionDeniedError) return { outcome: 'forbidden', detail: 'FORBIDDEN', permission: error.permission, result: null };
  return { outcome: 'error', detail: null, permission: null, result: null };
}

function valueOutcome(value: unknown, context: object, info: GraphQLResolveInfo): Outcome {
  // The errors plugin answers a typed error as a proxy of it, and keeps its class here.
  const errorClass = (typeof value === 'object' && value !== null ? errorTypeMap.get(value) : undefined) as (new (...args: never[]) => Error) | undefined;
  if (!errorClass) return { outcome: 'success', detail: null, permission: null, result: resultIdOf(value) };
  const detail = unionMemberOf(value, context, info);
  const is = (base: new (...args: never[]) => Error) => errorClass === base || errorClass.prototype instanceof base;
  if (is(PermissionDeniedError)) return { outcome: 'forbidden', detail, permission: (value as PermissionDeniedError).permission, result: null };
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
  if (typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string') return (value as { id: string }).id;
  return null;
}
