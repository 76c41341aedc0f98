/**
 * Document 3 writes in the graph: cancelling a mandate or a pending payout, for the connected account
 * the record was read for; and InvalidOperation, the bank's refusal of a write the record does not allow.
 */

import { builder } from '../builder.ts';
import { InvalidOperationError } from '../upstream/errors.ts';
import { DirectDebitNode, MandateNode } from './direct-debit.ts';
import { partsOf } from './direct-debit-reads.ts';
import { MUTATION_ERRORS, MutationError, orAlreadyDone } from './mutation-errors.ts';
import { idempotencyKeyArg } from './mutation-inputs.ts';
import { bankIdIn, recordIdDescription } from './record-ids.ts';

builder.objectType(InvalidOperationError, {
  name: 'InvalidOperation',
  description: 'The bank refused an operation the resource does not allow (code invalid_operation), e.g. cancelling a direct debit that is not a pending UK GBP payout.',
  interfaces: [MutationError],
  fields: (t) => ({
    code: t.string({ nullable: false, description: "The bank's error code.", resolve: (e) => e.upstreamCode ?? 'invalid_operation' }),
    requestId: t.exposeString('requestId', { nullable: false, description: 'Trace id of the call.' }),
  }),
});

const DIRECT_DEBIT_ERRORS = [...MUTATION_ERRORS, InvalidOperationError];

const MandateCancelInput = builder.inputType('MandateCancelInput', {
  description: 'The mandate to cancel; future collections under it are rejected.',
  fields: (t) => ({ mandateId: t.id({ required: true, description: recordIdDescription('Mandate', 'The mandate (it carries whom you act for)') }) }),
});

builder.mutationField('mandateCancel', (t) =>
  t.field({
    authScopes: { permission: 'direct-debit:write' },
    type: MandateNode,
    nullable: false,
    description: 'Cancels a direct debit mandate. Payouts already in process can be disputed through support once settled.',
    errors: { types: DIRECT_DEBIT_ERRORS, dataField: { name: 'mandate', description: 'The mandate, read again.' } },
    args: { input: t.arg({ type: MandateCancelInput, required: true, description: 'The mandate.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const key = bankIdIn(input.mandateId, ['input', 'mandateId'], 'Mandate', 2);
      const { actingFor, parts } = partsOf(key);
      const [accountId = '', mandateId = ''] = parts;
      const loader = MandateNode.getDataloader(context);
      await orAlreadyDone(
        () => context.upstream.directDebit.mandateCancel(accountId, mandateId, actingFor, idempotencyKey),
        idempotencyKey,
        async () => (await loader.clear(key).load(key))?.status === 'CANCELLED',
      );
      loader.clear(key);
      return key;
    },
  }),
);

const DirectDebitCancelInput = builder.inputType('DirectDebitCancelInput', {
  description: 'The direct debit payout to cancel: only PENDING GBP payouts in the United Kingdom can be.',
  fields: (t) => ({ directDebitId: t.id({ required: true, description: recordIdDescription('DirectDebit', 'The payout (it carries whom you act for)') }) }),
});

builder.mutationField('directDebitCancel', (t) =>
  t.field({
    authScopes: { permission: 'direct-debit:write' },
    type: DirectDebitNode,
    nullable: false,
    description: 'Cancels a PENDING UK GBP direct debit payout; anything else comes back as InvalidOperation.',
    errors: { types: DIRECT_DEBIT_ERRORS, dataField: { name: 'directDebit', description: 'The payout, read again.' } },
    args: { input: t.arg({ type: DirectDebitCancelInput, required: true, description: 'The payout.' }), ...idempotencyKeyArg() },
    resolve: async (_root, { input, idempotencyKey }, context) => {
      const key = bankIdIn(input.directDebitId, ['input', 'directDebitId'], 'DirectDebit', 1);
      const { actingFor, parts } = partsOf(key);
      const loader = DirectDebitNode.getDataloader(context);
      await orAlreadyDone(
        () => context.upstream.directDebit.directDebitCancel(parts[0] ?? '', actingFor, idempotencyKey),
        idempotencyKey,
        async () => (await loader.clear(key).load(key))?.status === 'CANCELLED',
      );
      loader.clear(key);
      return key;
    },
  }),
);
