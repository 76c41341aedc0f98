import { getOperationAST, Kind, valueFromAST, GraphQLBoolean, type DocumentNode, type ExecutionArgs, type FieldNode } from 'graphql';

/**
 * `rateLimit(dryRun: true)` (GitHub's shape): the operation is priced and not run. What runs
 * instead is the operation cut to its `rateLimit` fields, which read the price and call no bank.
 */

const ROOT_FIELD = 'rateLimit';

/** The operation's root `rateLimit` fields (aliases included), written in its own selection. */
function rateLimitFields(args: Pick<ExecutionArgs, 'document' | 'operationName'>): FieldNode[] {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'query') return [];
  return operation.selectionSet.selections.filter(
    (selection): selection is FieldNode => selection.kind === Kind.FIELD && selection.name.value === ROOT_FIELD,
  );
}

/** Whether one of its `rateLimit` fields asks for a dry run, with its variables. */
export function isDryRun(args: Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues'>): boolean {
  return rateLimitFields(args).some((field) => {
    const dryRun = field.arguments?.find((argument) => argument.name.value === 'dryRun');
    return dryRun !== undefined && valueFromAST(dryRun.value, GraphQLBoolean, args.variableValues ?? undefined) === true;
  });
}

/** The document with its operation cut to its root `rateLimit` fields: what a dry run executes. */
export function onlyRateLimit(args: Pick<ExecutionArgs, 'document' | 'operationName'>): DocumentNode {
  const operation = getOperationAST(args.document, args.operationName)!;
  const kept = rateLimitFields(args);
  return {
    ...args.document,
    definitions: args.document.definitions.map((definition) =>
      definition === operation ? { ...operation, selectionSet: { ...operation.selectionSet, selections: kept } } : definition,
    ),
  };
}
