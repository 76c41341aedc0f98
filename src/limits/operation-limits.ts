import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import {
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLInt,
  isListType,
  Kind,
  TypeInfo,
  validate,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type GraphQLArgument,
  type GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DEFAULT_PAGE_SIZE, listLengthProblem, MAX_ENTITY_REPRESENTATIONS, pageSizeProblem } from './page-size.ts';
import { LIMIT_HINTS, refusal, tooComplex } from './refusal.ts';
import { variableErrors } from './variable-errors.ts';

/**
 * Checks that need the variables, so they run just before execution (validation results are cached
 * per document): every size argument within its bound, and the operation's cost with the page sizes
 * it really asks for. graphql-armor's cost rule only reads literal `first`/`last`, so a variable or
 * an omitted page size would count as one item; here the rule gets a copy of the operation with
 * each page size written in (the default where none is given).
 */

/**
 * Armor's cost, weighted so it approximates the values a response can hold: 1 per scalar, 2 per
 * object, times the page size of every list above it. Armor's default 1.5 per level of depth would
 * make a single page of richly selected items look as costly as nested pages; depth has its own
 * limit. Fragments count as the fields they stand for.
 */
const COST_WEIGHTS = { scalarCost: 1, objectCost: 2, depthCostFactor: 1, flattenFragments: true } as const;

export interface OperationLimits {
  maxCost: number;
  /** Production: refusals do not tell the limits. */
  hideLimits: boolean;
}

const PAGE_ARGUMENTS = new Set(['first', 'last']);

type OperationArgs = Pick<ExecutionArgs, 'document' | 'operationName' | 'variableValues'>;

function operationLimitErrors(schema: GraphQLSchema, args: OperationArgs, limits: OperationLimits): GraphQLError[] {
  const sized = sizedOperation(schema, args);
  if (!sized) return [];
  if ('badVariables' in sized) return sized.badVariables;
  return [...sized.errors, ...costErrors(schema, sized.document, limits)];
}

/**
 * The operation's cost with the page sizes in `variableValues` (the default for the others), for
 * measuring documents whose other variables are not at hand; undefined without such an operation.
 */
export function operationCost(schema: GraphQLSchema, args: OperationArgs): number | undefined {
  const sized = sizedOperation(schema, args, { lenient: true });
  if (!sized || 'badVariables' in sized) return undefined;
  let cost = 0;
  validate(schema, sized.document, [
    costLimitRule({ ...COST_WEIGHTS, maxCost: Number.MAX_SAFE_INTEGER, onAccept: [(_, { n }) => (cost = n)] }),
  ]);
  return cost;
}

/**
 * Refuses before execution, over HTTP, SSE and graphql-ws alike. Yoga hands the same parsed
 * document to every request with the same text, so an operation and variables found within the
 * limits once are not measured again (up to MAX_ACCEPTED_PER_DOCUMENT variants per document);
 * refusals are always measured afresh.
 */
export function useOperationLimits(limits: OperationLimits): Plugin {
  const accepted = new WeakMap<DocumentNode, Set<string>>();
  const check = ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  }) => {
    const key = `${args.operationName ?? ''}\u0000${JSON.stringify(args.variableValues ?? {})}`;
    const known = accepted.get(args.document);
    if (known?.has(key)) return;
    const errors = operationLimitErrors(args.schema, args, limits);
    if (errors.length > 0) return setResultAndStopExecution({ errors });
    const variants = known ?? new Set<string>();
    if (variants.size >= MAX_ACCEPTED_PER_DOCUMENT) variants.clear();
    variants.add(key);
    accepted.set(args.document, variants);
  };
  return { onExecute: check, onSubscribe: check };
}

const MAX_ACCEPTED_PER_DOCUMENT = 100;

function costErrors(schema: GraphQLSchema, document: DocumentNode, limits: OperationLimits): GraphQLError[] {
  const errors: GraphQLError[] = [];
  validate(schema, document, [
    costLimitRule({
      ...COST_WEIGHTS,
      maxCost: limits.maxCost,
      exposeLimits: !limits.hideLimits,
      errorMessage: LIMIT_HINTS.cost,
      propagateOnRejection: false,
      onReject: [(_, error) => errors.push(tooComplex('cost', error.message))],
    }),
  ]);
  return errors;
}

/**
 * The selected operation (with its fragments) with every page size written in as a literal, and the
 * size arguments that are out of bounds; with variables that do not fit, the coded errors saying
 * where. Undefined without such an operation: graphql-js then says
 * why. `lenient` takes the variables as given.
 */
function sizedOperation(
  schema: GraphQLSchema,
  { document, operationName, variableValues }: OperationArgs,
  { lenient = false } = {},
): { document: DocumentNode; errors: GraphQLError[] } | { badVariables: GraphQLError[] } | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variableValues ?? {});
  if (coerced.errors && !lenient) return { badVariables: variableErrors(schema, operation, variableValues ?? {}) };
  const variables = coerced.errors ? { ...variableValues } : coerced.coerced;
  const errors: GraphQLError[] = [];
  const typeInfo = new TypeInfo(schema);
  const selected: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: document.definitions.filter((d) => d === operation || d.kind === Kind.FRAGMENT_DEFINITION),
  };
  const sized = visit(
    selected,
    visitWithTypeInfo(typeInfo, {
      Field: {
        leave(field) {
          const definition = typeInfo.getFieldDef();
          const parent = typeInfo.getParentType();
          if (!definition || !parent) return undefined;
          const values = argumentValues(definition.args, field, variables);
          const coordinate = `${parent.name}.${definition.name}`;
          errors.push(...boundErrors(coordinate, definition.args, values), ...streamErrors(coordinate, field, variables));
          return definition.args.some((a) => a.name === 'first') ? withPageSize(field, values) : undefined;
        },
      },
    }),
  );
  return { document: sized, errors };
}

/** A field's arguments as its resolver gets them: given (with the variables) or their defaults. */
export function argumentValues(
  definitions: readonly GraphQLArgument[],
  field: FieldNode,
  variables: Record<string, unknown>,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const definition of definitions) {
    const node = field.arguments?.find((a) => a.name.value === definition.name);
    values.set(definition.name, node ? valueFromAST(node.value, definition.type, variables) : definition.defaultValue);
  }
  return values;
}

function boundErrors(coordinate: string, definitions: readonly GraphQLArgument[], values: Map<string, unknown>): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const definition of definitions) {
    const value = values.get(definition.name);
    const problem =
      PAGE_ARGUMENTS.has(definition.name) && typeof value === 'number'
        ? pageSizeProblem(value)
        : isListType(getNullableType(definition.type)) && Array.isArray(value)
          ? listLengthProblem(value.length, coordinate === 'Query._entities' ? MAX_ENTITY_REPRESENTATIONS : undefined)
          : undefined;
    if (problem) {
      errors.push(
        refusal(
          'BAD_USER_INPUT',
          `Argument "${definition.name}" of ${coordinate} ${problem}; got ${Array.isArray(value) ? `${value.length} items` : value}.`,
          {
            argument: definition.name,
            field: coordinate,
          },
        ),
      );
    }
  }
  return errors;
}

/**
 * `@stream(initialCount:)` below zero: the executor would fail on it mid-response with an
 * unexpected error; it is the caller's mistake, told before execution.
 */
function streamErrors(coordinate: string, field: FieldNode, variables: Record<string, unknown>): GraphQLError[] {
  const argument = field.directives?.find((d) => d.name.value === 'stream')?.arguments?.find((a) => a.name.value === 'initialCount');
  const initialCount = argument && valueFromAST(argument.value, GraphQLInt, variables);
  if (typeof initialCount !== 'number' || initialCount >= 0) return [];
  return [
    refusal('BAD_USER_INPUT', `Argument "initialCount" of @stream on ${coordinate} must not be negative; got ${initialCount}.`, {
      argument: 'initialCount',
      directive: 'stream',
      field: coordinate,
    }),
  ];
}

/** The items a connection field asks for: the smaller of `first` and `last`, the default without either. */
export function pageSizeOf(values: Map<string, unknown>): number {
  const given = [values.get('first'), values.get('last')].filter((v): v is number => typeof v === 'number');
  return given.length > 0 ? Math.max(0, Math.min(...given)) : DEFAULT_PAGE_SIZE;
}

/** The connection field with one literal `first`: the page it will really return. */
function withPageSize(field: FieldNode, values: Map<string, unknown>): FieldNode {
  const size = pageSizeOf(values);
  const first: ArgumentNode = {
    kind: Kind.ARGUMENT,
    name: { kind: Kind.NAME, value: 'first' },
    value: { kind: Kind.INT, value: String(size) },
  };
  return { ...field, arguments: [...(field.arguments ?? []).filter((a) => !PAGE_ARGUMENTS.has(a.name.value)), first] };
}
