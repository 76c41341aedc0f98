import { Kind, visit, type DirectiveLocation, type DocumentNode, type FragmentDefinitionNode } from 'graphql';

/** Where a client writes a directive: the places the matrix's rows must cover for each directive. */
export type Placement =
  | 'on the operation'
  | 'inline'
  | 'in a named fragment'
  | 'in a nested fragment'
  | 'on a spread'
  | 'in a fragment spread twice'
  | 'on a fragment definition'
  | 'on a variable definition';

const IN_SELECTIONS: readonly Placement[] = ['inline', 'in a named fragment', 'in a nested fragment', 'in a fragment spread twice'];

/** The places a directive with these locations can be written in, each needing a row. Type-system locations (@deprecated's) need none. */
export function requiredPlacements(locations: readonly DirectiveLocation[]): Placement[] {
  const places = new Set<Placement>();
  for (const location of locations) {
    if (location === 'QUERY' || location === 'MUTATION' || location === 'SUBSCRIPTION') places.add('on the operation');
    if (location === 'FIELD' || location === 'INLINE_FRAGMENT') IN_SELECTIONS.forEach((place) => places.add(place));
    if (location === 'FRAGMENT_SPREAD') places.add('on a spread');
    if (location === 'FRAGMENT_DEFINITION') places.add('on a fragment definition');
    if (location === 'VARIABLE_DEFINITION') places.add('on a variable definition');
  }
  return [...places];
}

/** Where the documents write each directive, by the directive's name. */
export function placementsOf(documents: readonly DocumentNode[]): Map<string, Set<Placement>> {
  const found = new Map<string, Set<Placement>>();
  const add = (name: string, place: Placement) => (found.get(name) ?? found.set(name, new Set()).get(name)!).add(place);
  for (const document of documents) {
    const depths = fragmentDepths(document);
    const spreads = new Map<string, number>();
    visit(document, { FragmentSpread: (node) => void spreads.set(node.name.value, (spreads.get(node.name.value) ?? 0) + 1) });
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      const fragment = definition.kind === Kind.FRAGMENT_DEFINITION ? definition.name.value : undefined;
      const inSelections: Placement[] =
        fragment === undefined
          ? ['inline']
          : [
              depths.get(fragment) === 1 ? 'in a named fragment' : 'in a nested fragment',
              ...((spreads.get(fragment) ?? 0) > 1 ? ['in a fragment spread twice' as const] : []),
            ];
      definition.directives?.forEach((d) => add(d.name.value, fragment === undefined ? 'on the operation' : 'on a fragment definition'));
      visit(definition.selectionSet, {
        FragmentSpread: (node) => node.directives?.forEach((d) => add(d.name.value, 'on a spread')),
        Field: (node) => node.directives?.forEach((d) => inSelections.forEach((place) => add(d.name.value, place))),
        InlineFragment: (node) => node.directives?.forEach((d) => inSelections.forEach((place) => add(d.name.value, place))),
      });
      if (definition.kind === Kind.OPERATION_DEFINITION)
        definition.variableDefinitions?.forEach((v) => v.directives?.forEach((d) => add(d.name.value, 'on a variable definition')));
    }
  }
  return found;
}

/** How far each fragment is from an operation: 1 for one an operation spreads, 2 for one spread by such a fragment... */
function fragmentDepths(document: DocumentNode): Map<string, number> {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const depths = new Map<string, number>();
  const spreadIn = (node: object) => {
    const names: string[] = [];
    visit(node as DocumentNode, { FragmentSpread: (spread) => void names.push(spread.name.value) });
    return names;
  };
  let level = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).flatMap(spreadIn);
  for (let depth = 1; level.length > 0; depth++) {
    const fresh = level.filter((name) => !depths.has(name) && fragments.has(name));
    fresh.forEach((name) => depths.set(name, depth));
    level = fresh.flatMap((name) => spreadIn(fragments.get(name)!.selectionSet));
  }
  return depths;
}
