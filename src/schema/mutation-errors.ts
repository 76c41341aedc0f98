import { InputValidationError, type StandardSchemaV1 } from '@pothos/plugin-validation';
import { builder } from '../builder.ts';
import { PermissionDeniedError } from '../authorization/permissions.ts';
import { ProgramNotSupportedError, UpstreamRejectedError, WriteMayHaveGoneThroughError, WriteOutcomeUnknownError } from '../upstream/errors.ts';

/** The typed errors a mutation returns as data rather than throws, and the ValidationError it builds from broken rules. */

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

builder.objectType(WriteOutcomeUnknownError, {
  name: 'OutcomeUnknown',
  description:
    'The write was sent, and its answer was lost (the connection dropped or timed out, or the bank failed with a 5xx): the bank may or may not have applied it. Send the same mutation again with `idempotencyKey` set to this `idempotencyKey`: the bank applies it at most once and answers its one result. Do not start a new attempt without the key (docs/frontend.md, "Sending money safely").',
  interfaces: [MutationError],
  fields: (t) => ({
    idempotencyKey: t.exposeString('idempotencyKey', {
      nullable: false,
      description: "The key the write was sent with (the caller's, or the one the gateway made): retry with it.",
    }),
    check: t.exposeString('check', { nullable: false, description: 'Where to look whether it went through, in the graph\u2019s words.' }),
  }),
});

builder.objectType(WriteMayHaveGoneThroughError, {
  name: 'MayHaveGoneThrough',
  description:
    'The bank refused this write, but it repeats an earlier attempt of the same request whose answer was lost (OutcomeUnknown), under another key: the refusal may only mean that the earlier one went through (its quote is used, its collection already cancelled). Look first (`check`), or send it again with `earlierIdempotencyKey`, which answers the earlier attempt\u2019s one result. Never a reason to start over.',
  interfaces: [MutationError],
  fields: (t) => ({
    earlierIdempotencyKey: t.exposeString('earlierIdempotencyKey', { nullable: false, description: 'The key the earlier attempt was sent with: retry with it to learn its result.' }),
    earlierAttemptAt: t.field({ type: 'DateTime', nullable: false, description: 'When the earlier attempt was sent.', resolve: (error) => new Date(error.earlierAt) }),
    check: t.exposeString('check', { nullable: false, description: 'Where to look whether the earlier attempt went through, in the graph\u2019s words.' }),
    upstreamStatus: t.exposeInt('status', { nullable: false, description: 'Status code the bank refused this attempt with.' }),
    upstreamMessage: t.exposeString('upstreamMessage', { description: "The bank's own message for this attempt." }),
    requestId: t.exposeString('requestId', { nullable: false, description: 'The x-request-id this attempt carried.' }),
  }),
});

/** The errors a mutation that logs in, and so writes nothing at the bank, may return as data. */
export const SESSION_ERRORS = [PermissionDeniedError, InputValidationError, ProgramNotSupportedError, UpstreamRejectedError];

/** The errors every mutation that writes at the bank may return as data. */
export const MUTATION_ERRORS = [...SESSION_ERRORS, WriteOutcomeUnknownError, WriteMayHaveGoneThroughError];

/** Builds a validation failure that the errors plugin returns as a ValidationError result. */
export function validationError(path: string[], message: string): InputValidationError {
  return validationErrors([{ path, message }]);
}

export function validationErrors(issues: UpstreamRuleIssue[]): InputValidationError {
  return new InputValidationError({ issues });
}

/**
 * A write the bank keeps no key for (Document 3's direct debit cancels), sent again with the key of
 * an attempt whose answer was lost: when the bank refuses the repeat and the record shows the write
 * done, the earlier attempt went through, and that is the one result to answer. Any other refusal,
 * or a repeat under another key, stays what the write-outcome stage made of it.
 */
export async function orAlreadyDone(send: () => Promise<unknown>, idempotencyKey: string | null | undefined, done: () => Promise<boolean>): Promise<void> {
  try {
    await send();
  } catch (error) {
    const repeat = error instanceof WriteMayHaveGoneThroughError && idempotencyKey != null && error.earlierIdempotencyKey === idempotencyKey;
    if (repeat && (await done())) return;
    throw error;
  }
}
