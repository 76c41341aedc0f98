import { builder } from '../builder.ts';
import { priceOf, type OperationPrice } from '../limits/bank-call-pricing.ts';

/**
 * `Query.rateLimit`, in GitHub's shape: what this operation can cost the bank, and the caller's
 * bank-call budget (CLIENT_BANK_CALL_BUDGET) left in its window. `dryRun: true` prices the operation
 * without running the rest of it (limits/dry-run.ts).
 */

const RateLimit = builder.objectRef<OperationPrice>('RateLimit').implement({
  description: "This operation's price in bank calls, and what the caller's budget has left (docs/operations.md, \"Bank calls per operation\").",
  fields: (t) => ({
    cost: t.int({
      nullable: false,
      description: 'The most bank calls this whole operation can make, estimated before it ran (the record cache not counted on).',
      resolve: (price) => price.estimate.calls,
    }),
    limit: t.int({
      description: "The caller's bank calls per window (CLIENT_BANK_CALL_BUDGET); null when there is no budget.",
      resolve: async (price) => (await price.budget())?.limit ?? null,
    }),
    remaining: t.int({
      description: 'What is left of it in this window, this operation charged; null when there is no budget.',
      resolve: async (price) => (await price.budget())?.remaining ?? null,
    }),
    resetAt: t.field({
      type: 'DateTime',
      description: 'When the window starts afresh; null when there is no budget.',
      resolve: async (price) => (await price.budget())?.resetAt ?? null,
    }),
  }),
});

builder.queryField('rateLimit', (t) =>
  t.field({
    authScopes: { anyone: true },
    type: RateLimit,
    nullable: false,
    description:
      "This operation's price in bank calls and the caller's budget. With `dryRun: true`, the operation is priced and not run: only its `rateLimit` fields answer, and nothing is charged.",
    args: { dryRun: t.arg.boolean({ defaultValue: false, description: 'Price the operation without running it.' }) },
    resolve: (_root, _args, context) => {
      const price = priceOf(context);
      if (!price) throw new Error('the operation was not priced before it ran');
      return price;
    },
  }),
);
