import { GraphQLDeferDirective } from '@graphql-tools/utils';
import { decodeGlobalID } from '@pothos/plugin-relay';
import {
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  typeFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { endpointName } from '../upstream/endpoint.ts';
import {
  BANK_CALL_PRICES,
  LIST_LENGTHS,
  NODE_LOADERS,
  type BankCallPrice,
  type NodeTypeName,
  type PagingKind,
} from './bank-call-prices.ts';
import { Tally, times, type BankCallEstimate } from './bank-call-tally.ts';
import { argumentValues, pageSizeOf } from './operation-limits.ts';
import { MAX_PAGE_SIZE } from './page-size.ts';

interface OperationArgs {
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
}

export function estimateBankCalls(schema: GraphQLSchema, args: OperationArgs): BankCallEstimate | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const variables = coercedVariables(schema, operation, args.variableValues ?? {});
  const variants = variantsOf(schema, args.document, operation);
  const known = variants.find((variant) => valuesKey(variant.read, variables) === variant.values);
  if (known) return known.estimate;
  const read = new Set<string>();
  const walked = new OperationWalk(schema, args.document, recording(variables, read)).estimate(operation);
  // Kept and handed to every request with the same values: nobody may change it.
  const estimate = Object.freeze({ calls: walked.calls, costliest: Object.freeze(walked.costliest) as BankCallEstimate['costliest'] });
  if (variants.length >= MAX_VARIANTS) variants.shift();
  variants.push({ read: [...read], values: valuesKey([...read], variables), estimate });
  return estimate;
}

// --- The cache: per schema and document, then per values of the variables the estimate read ------

/**
 * An estimate depends on the variables only through the values the walk read (sizes, cursors,
 * ids, @skip/@include): a variant is kept with the names it read, and answers any request that
 * gives those the same values.
 */
interface Variant {
  read: string[];
  values: string;
  estimate: BankCallEstimate;
}

const MAX_VARIANTS = 32;
const variantsBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<OperationDefinitionNode, Variant[]>>>();

function variantsOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Variant[] {
  let byDocument = variantsBySchema.get(schema);
  if (!byDocument) variantsBySchema.set(schema, (byDocument = new WeakMap()));
  let byOperation = byDocument.get(document);
  if (!byOperation) byDocument.set(document, (byOperation = new Map()));
  let variants = byOperation.get(operation);
  if (!variants) byOperation.set(operation, (variants = []));
  return variants;
}

const valuesKey = (names: readonly string[], variables: Record<string, unknown>): string =>
  JSON.stringify(names.map((name) => variables[name] ?? null));

/** The variables as graphql-js reads them, noting each name read. */
function recording(variables: Record<string, unknown>, read: Set<string>): Record<string, unknown> {
  const note = (name: string | symbol) => typeof name === 'string' && read.add(name);
  return new Proxy(variables, {
    get: (target, name) => (note(name), Reflect.get(target, name)),
    has: (target, name) => (note(name), Reflect.has(target, name)),
    getOwnPropertyDescriptor: (target, name) => (note(name), Reflect.getOwnPropertyDescriptor(target, name)),
  });
}

/** As execution coerces them; as given when they do not fit (the operation is refused then anyway). */
function coercedVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], given);
  return coerced.errors ? { ...given } : { ...coerced.coerced };
}

// --- The walk -------------------------------------------------------------------------------------

/** Where a selection is walked: the objects it runs on, how many, and what produced them. */
interface Place {
  path: string;
  /** How many objects of this type the selection can run on. */
  parents: number;
  /** The field that produced them (`Query.upcomingPayouts` for its page's items). */
  origin: string;
  /** The root field above, and how many connected accounts its records may act for. */
  root: { key: string; actingForVariants: number };
  /** On a connection or its edges: the items per page. */
  page?: { items: number } | undefined;
}

const PAGE_ARGUMENTS = new Set(['first', 'last', 'after', 'before']);

const ORIGIN_OF_ID_ARGUMENT = { id: 'Query.node', ids: 'Query.nodes', representations: 'Query._entities' } as const;

/**
 * Walks an operation as execution would (@graphql-tools/executor, Yoga's): fields merged by
 * response key (each alias a run of its own), fragments whose type applies, @skip/@include with
 * the variables; a deferred fragment's fields run apart from the same fields outside it, so they
 * count again (@stream changes no call). An abstract type's selection is walked for each type it
 * may be and summed: a sound bound, tight where only one branch calls the bank.
 */
class OperationWalk {
  readonly #schema: GraphQLSchema;
  readonly #variables: Record<string, unknown>;
  readonly #fragments: Map<string, FragmentDefinitionNode>;
  readonly #tally = new Tally();

  constructor(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>) {
    this.#schema = schema;
    this.#variables = variables;
    this.#fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
  }

  estimate(operation: OperationDefinitionNode): BankCallEstimate {
    const root = this.#schema.getRootType(operation.operation);
    for (const fields of root ? this.#runs(root, [operation.selectionSet]) : []) {
      for (const [key, nodes] of fields) {
        const place: Place = { path: '', parents: 1, origin: '', root: { key, actingForVariants: 1 } };
        this.#field(root!, nodes, place, new Set());
      }
    }
    return this.#tally.estimate();
  }

  #selection(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[], place: Place): void {
    // Fields of one group share their call on each object, deferred or not (it is read through a per-request loader).
    const groups = new Set<string>();
    for (const fields of this.#runs(type, selectionSets)) for (const nodes of fields.values()) this.#field(type, nodes, place, groups);
  }

  /** The fields execution runs on one object: those not deferred, then each deferred fragment's apart. */
  #runs(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): Map<string, FieldNode[]>[] {
    const deferred: Map<string, FieldNode[]>[] = [];
    const fields = this.#collect(type, selectionSets, new Map(), deferred, new Set());
    return [fields, ...deferred];
  }

  #field(type: GraphQLObjectType, nodes: FieldNode[], place: Place, groups: Set<string>): void {
    const node = nodes[0]!;
    const definition = type.getFields()[node.name.value];
    if (!definition) return;
    const coordinate = `${type.name}.${definition.name}`;
    const path = place.path ? `${place.path}.${node.alias?.value ?? node.name.value}` : (node.alias?.value ?? node.name.value);
    const values = argumentValues(definition.args, node, this.#variables);
    const price = BANK_CALL_PRICES[coordinate];
    const subselections = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    if (price?.per === 'id') return this.#byId(price.argument, values, subselections, { ...place, path });
    if (price) this.#charge(price, values, { ...place, path }, groups);
    const named = getNamedType(definition.type);
    if (!isCompositeType(named)) return;
    const child = this.#childPlace(definition, coordinate, values, { ...place, path });
    for (const object of this.#possibleTypes(named)) this.#selection(object, subselections, child);
  }

  /** The objects a field's selection runs on: one per parent, a page's items, or a list's. */
  #childPlace(definition: GraphQLField<unknown, unknown>, coordinate: string, values: Map<string, unknown>, place: Place): Place {
    const isList = isListType(getNullableType(definition.type));
    const isConnection = definition.args.some((a) => a.name === 'first');
    // A list other than a page's: its length where one is chosen (LIST_LENGTHS), else unbounded, which matters only where a call is below.
    const items = !isList ? 1 : (place.page?.items ?? LIST_LENGTHS[coordinate] ?? Number.POSITIVE_INFINITY);
    return {
      path: place.path,
      parents: times(place.parents, items),
      origin: place.page ? place.origin : coordinate,
      root: place.root,
      page: isConnection ? { items: Math.min(pageSizeOf(values), MAX_PAGE_SIZE) } : definition.name === 'edges' ? place.page : undefined,
    };
  }

  #charge(price: Exclude<BankCallPrice, { per: 'id' }>, values: Map<string, unknown>, place: Place, groups: Set<string>): void {
    switch (price.per) {
      case 'parent': {
        if (price.freeWhenParentFrom?.includes(place.origin)) return;
        if (price.group !== undefined && groups.has(price.group)) return;
        if (price.group !== undefined) groups.add(price.group);
        const given = price.ifGiven && values.get(price.ifGiven.argument) != null ? price.ifGiven : undefined;
        const calls = (price.calls?.length ?? 0) + (given?.calls?.length ?? 0) + distinctItemCalls(price.perDistinct, values);
        this.#tally.add(place.path, times(place.parents, calls));
        const loads = [...(price.loads ?? []), ...(given?.loads ?? [])];
        for (const type of loads) this.#tally.load(type, place.path, place.parents, place.parents);
        return;
      }
      case 'page':
        return this.#tally.add(place.path, times(place.parents, pageCalls(price.paging, values) * price.calls.length));
      case 'arguments': {
        const shared = [...values].filter(([name]) => !PAGE_ARGUMENTS.has(name));
        const scope = price.sharedBy === 'root field' ? place.root : { key: '', actingForVariants: 1 };
        const key = JSON.stringify([price.calls.map(endpointName), shared, scope.key]);
        return this.#tally.share(key, place.path, place.parents, scope.actingForVariants, price.times * price.calls.length);
      }
    }
  }

  /** `node`, `nodes`, `_entities`: a load per id of the type it names, one batch per type and run. */
  #byId(argument: 'id' | 'ids' | 'representations', values: Map<string, unknown>, subselections: SelectionSetNode[], place: Place): void {
    const given = values.get(argument);
    const byType = argument === 'representations' ? representedTypes(given) : globalIdTypes(argument === 'id' ? [given] : given);
    const ids = [...byType.values()].reduce((sum, count) => sum + count, 0);
    for (const [typename, count] of byType) {
      const object = this.#schema.getType(typename);
      if (!isObjectType(object) || !(typename in NODE_LOADERS)) continue;
      const loads = times(place.parents, count);
      // `nodes` loads each type's ids at once; a router's representations may come apart.
      this.#tally.load(typename as NodeTypeName, place.path, loads, argument === 'representations' ? loads : place.parents);
      // Each id may name records read for another connected account (direct debit keys carry it).
      const root = { key: place.root.key, actingForVariants: ids };
      this.#selection(object, subselections, { path: place.path, parents: loads, origin: ORIGIN_OF_ID_ARGUMENT[argument], root });
    }
  }

  #possibleTypes(type: GraphQLNamedType): readonly GraphQLObjectType[] {
    if (isObjectType(type)) return [type];
    return isAbstractType(type) ? this.#schema.getPossibleTypes(type) : [];
  }

  /** @graphql-tools/utils' collectFields: by response key, for one object type, with the variables. */
  #collect(
    type: GraphQLObjectType,
    selectionSets: readonly SelectionSetNode[],
    fields: Map<string, FieldNode[]>,
    deferred: Map<string, FieldNode[]>[],
    seen: Set<string>,
  ): Map<string, FieldNode[]> {
    for (const selection of selectionSets.flatMap((set) => set.selections)) {
      if (!this.#included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!key.startsWith('__')) fields.set(key, [...(fields.get(key) ?? []), selection]);
        continue;
      }
      const defers = this.#defers(selection);
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : this.#fragments.get(selection.name.value);
      if (!fragment || (selection.kind === Kind.FRAGMENT_SPREAD && seen.has(selection.name.value) && !defers)) continue;
      if (!this.#applies(fragment.typeCondition, type)) continue;
      if (selection.kind === Kind.FRAGMENT_SPREAD && !defers) seen.add(selection.name.value);
      const into = defers ? new Map<string, FieldNode[]>() : fields;
      this.#collect(type, [fragment.selectionSet], into, deferred, seen);
      if (defers) deferred.push(into);
    }
    return fields;
  }

  #defers(selection: SelectionNode): boolean {
    const defer = getDirectiveValues(GraphQLDeferDirective, selection, this.#variables);
    return defer !== undefined && defer.if !== false;
  }

  #included(selection: SelectionNode): boolean {
    if (getDirectiveValues(GraphQLSkipDirective, selection, this.#variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, selection, this.#variables)?.if !== false;
  }

  #applies(condition: NamedTypeNode | undefined, type: GraphQLObjectType): boolean {
    if (!condition) return true;
    const conditionType = typeFromAST(this.#schema, condition);
    return conditionType === type || (isAbstractType(conditionType) && this.#schema.isSubType(conditionType, type));
  }
}

/** Calls made once per distinct item of a list argument (`input.transferMethods`), at most `atMost` without it. */
function distinctItemCalls(
  perDistinct: { argument: readonly string[]; calls: readonly unknown[]; atMost: number } | undefined,
  values: Map<string, unknown>,
): number {
  if (!perDistinct) return 0;
  const [name, ...path] = perDistinct.argument;
  const list = path.reduce<unknown>((value, key) => (value as Record<string, unknown> | null | undefined)?.[key], values.get(name!));
  const items = Array.isArray(list) ? new Set(list.map((item) => JSON.stringify(item))).size : perDistinct.atMost;
  return items * perDistinct.calls.length;
}

/** Calls of one run of a connection over the bank's pages (schema/connections.ts; Pothos asks one item more). */
function pageCalls(paging: PagingKind, values: Map<string, unknown>): number {
  const items = Math.min(pageSizeOf(values), MAX_PAGE_SIZE);
  const fromStart = values.get('after') == null && values.get('before') == null;
  if (paging === 'offset and limit') return items < MAX_PAGE_SIZE ? 1 : 2;
  return fromStart && items < MAX_PAGE_SIZE ? 1 : 2;
}

/** How many of the global IDs name each type; an id that is none names nothing and is not read. */
function globalIdTypes(ids: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of Array.isArray(ids) ? ids : []) {
    const typename = typeof id === 'string' ? typenameOf(id) : undefined;
    if (typename) counts.set(typename, (counts.get(typename) ?? 0) + 1);
  }
  return counts;
}

function typenameOf(id: string): string | undefined {
  try {
    return decodeGlobalID(id).typename;
  } catch {
    return undefined;
  }
}

/** A router's representations by type, those that name a key of their type (schema/entities.ts). */
function representedTypes(representations: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  for (const reference of Array.isArray(representations) ? representations : []) {
    const { __typename: typename, id, upstreamId } = (reference ?? {}) as { __typename?: unknown; id?: unknown; upstreamId?: unknown };
    if (typeof typename !== 'string') continue;
    const named = id !== undefined ? typeof id === 'string' && typenameOf(id) === typename : upstreamId !== undefined;
    if (named) counts.set(typename, (counts.get(typename) ?? 0) + 1);
  }
  return counts;
}

export type { BankCallEstimate };
