import { Kind, type DocumentNode, type OperationTypeNode, type SelectionSetNode } from 'graphql';
import { getOperationAST } from 'graphql';

/**
 * The operation a request runs, and its root fields (through fragments): their names, and each
 * selection's response key (its alias, or its name) with the field it runs.
 */
export function rootFields(
  document: DocumentNode,
  operationName?: string | null,
): { type: OperationTypeNode; name: string | null; fields: Set<string>; selections: { key: string; field: string }[] } | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const fields = new Set<string>();
  const selections = new Map<string, string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields.add(selection.name.value);
        selections.set(selection.alias?.value ?? selection.name.value, selection.name.value);
      }
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment);
      }
    }
  };
  walk(operation.selectionSet);
  return { type: operation.operation, name: operation.name?.value ?? null, fields, selections: [...selections].map(([key, field]) => ({ key, field })) };
}

/**
 * What a passthrough caller without a token may run: the login mutation, and introspection so
 * GraphiQL can show the schema to someone about to log in. `__typename` goes with either.
 */
export function anonymousMayRun(document: DocumentNode, operationName?: string | null): boolean {
  const root = rootFields(document, operationName);
  if (!root || root.fields.size === 0) return false;
  const allowed =
    root.type === 'mutation' ? ['accessTokenCreate', '__typename'] : root.type === 'query' ? ['__schema', '__type', '__typename'] : [];
  return [...root.fields].every((field) => allowed.includes(field));
}
