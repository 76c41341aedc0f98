import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLDirective,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** A directive met in what an operation executes, and the fragment it was written in (none: the operation's own selection). */
export interface ReachedDirective {
  directive: DirectiveNode;
  fragment: string | undefined;
}

/**
 * Where the walk knows the variables (just before execution): a selection that @skip or @include
 * leaves out is not entered, and a directive whose `if` is false is not counted. Without them
 * (validation, cached per document) only a literal `if: false` turns a directive off: a variable
 * may be true.
 */
export interface KnownVariables {
  values: Record<string, unknown>;
  /** The definitions of the directives looked for, to read their `if` with its default. */
  definitions: ReadonlyMap<string, GraphQLDirective>;
}

/**
 * The directives named `names` in what `operation` executes: its own selection and that of every
 * fragment it spreads, however deep, each fragment once. Fragments another operation of the document
 * uses are not visited, so one document may hold a live query and a query with @defer.
 */
export function directivesReached(
  operation: OperationDefinitionNode,
  fragmentNamed: (name: string) => FragmentDefinitionNode | undefined,
  names: ReadonlySet<string>,
  variables?: KnownVariables,
): ReachedDirective[] {
  const reached: ReachedDirective[] = [];
  const entered = new Set<string>();
  const counted = (directives: readonly DirectiveNode[] | undefined, fragment: string | undefined) => {
    for (const directive of directives ?? []) {
      if (names.has(directive.name.value) && isOn(directive, variables)) reached.push({ directive, fragment });
    }
  };
  const walk = (selectionSet: SelectionSetNode, fragment: string | undefined): void => {
    for (const selection of selectionSet.selections) {
      if (variables && !included(selection.directives, variables.values)) continue;
      counted(selection.directives, fragment);
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const definition = fragmentNamed(name);
        if (!definition || entered.has(name)) continue;
        entered.add(name);
        counted(definition.directives, name);
        walk(definition.selectionSet, name);
      } else if (selection.selectionSet) {
        walk(selection.selectionSet, fragment);
      }
    }
  };
  walk(operation.selectionSet, undefined);
  return reached;
}

/** A document's fragments by name, as directivesReached looks them up. */
export function fragmentsOf(document: DocumentNode): (name: string) => FragmentDefinitionNode | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return (name) => fragments.get(name);
}

/** Whether a document names any of `names` at all: most name none, and need no walk. */
export function namesAnyDirective(document: DocumentNode, names: ReadonlySet<string>): boolean {
  const inSelections = (selectionSet: SelectionSetNode | undefined): boolean =>
    selectionSet?.selections.some(
      (selection) =>
        selection.directives?.some((d) => names.has(d.name.value)) ||
        inSelections((selection as { selectionSet?: SelectionSetNode }).selectionSet),
    ) ?? false;
  return document.definitions.some(
    (definition) =>
      (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) &&
      (definition.directives?.some((d) => names.has(d.name.value)) || inSelections(definition.selectionSet)),
  );
}

/** As graphql-js decides it: @skip(if: true) or @include(if: false) leaves a selection out. */
function included(directives: readonly DirectiveNode[] | undefined, values: Record<string, unknown>): boolean {
  if (!directives?.length) return true;
  const node = { directives };
  if (getDirectiveValues(GraphQLSkipDirective, node, values)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;
}

/** Whether a directive's `if` leaves it on: with the variables, its value; without, anything but a literal false. */
export function isOn(directive: DirectiveNode, variables: KnownVariables | undefined): boolean {
  const definition = variables?.definitions.get(directive.name.value);
  if (variables && definition) return getDirectiveValues(definition, { directives: [directive] }, variables.values)?.if !== false;
  const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
  return !(condition?.kind === Kind.BOOLEAN && !condition.value);
}
