import { InputValidationError, type StandardSchemaV1 } from '@pothos/plugin-validation';
import { builder } from '../builder.ts';
import { PermissionDeniedError } from '../permissions.ts';
import { ProgramNotSupportedError, UpstreamRejectedError } from '../upstream/errors.ts';

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

/** The errors every mutation may return as data. */
export const MUTATION_ERRORS = [PermissionDeniedError, InputValidationError, ProgramNotSupportedError, UpstreamRejectedError];

/** Builds a validation failure that the errors plugin returns as a ValidationError result. */
export function validationError(path: string[], message: string): InputValidationError {
  return validationErrors([{ path, message }]);
}

export function validationErrors(issues: UpstreamRuleIssue[]): InputValidationError {
  return new InputValidationError({ issues });
}
