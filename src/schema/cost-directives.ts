import { astFromValueUntyped, MapperKind, mapSchema } from '@graphql-tools/utils';
import { DirectiveLocation, GraphQLBoolean, GraphQLDirective, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString, Kind, parse, print, printSchema, visit, type ConstDirectiveNode, type ConstValueNode, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { BANK_CALL_PRICES, type BankCallPrice } from '../limits/bank-call-prices.ts';
import { DEFAULT_PAGE_SIZE } from '../limits/page-size.ts';

/**
 * The IBM cost directives (`@cost`, `@listSize`, as Apollo Router's and Hive Gateway's demand
 * control read them) on the printed schema: each field's weight is the bank calls it makes per
 * parent (limits/bank-call-prices.ts), each connection sized by `first`/`last`, so a router that
 * prices operations itself prices them the way the gateway does. Served schemas carry them as
 * extensions; they change no answer.
 */

export const COST_DIRECTIVES = [
  new GraphQLDirective({
    name: 'cost',
    description: 'The weight of a field in bank calls per parent object (the IBM cost directive).',
    locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.OBJECT, DirectiveLocation.ARGUMENT_DEFINITION, DirectiveLocation.SCALAR, DirectiveLocation.ENUM, DirectiveLocation.INPUT_FIELD_DEFINITION],
    args: { weight: { type: new GraphQLNonNull(GraphQLInt) } },
  }),
  new GraphQLDirective({
    name: 'listSize',
    description: 'How many items a list field holds: the slicing arguments that bound it, or its assumed size (the IBM cost directive).',
    locations: [DirectiveLocation.FIELD_DEFINITION],
    args: {
      assumedSize: { type: GraphQLInt },
      slicingArguments: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
      sizedFields: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
      requireOneSlicingArgument: { type: GraphQLBoolean, defaultValue: true },
    },
  }),
];

/** A field's bank calls per parent, as a router's weight: what one run of its resolver can cost. */
function weightOf(price: BankCallPrice): number {
  switch (price.per) {
    case 'parent':
      return (price.calls?.length ?? 0) + (price.loads?.length ?? 0);
    case 'page':
      return price.calls.length;
    case 'arguments':
      return price.times * price.calls.length;
    case 'id':
      return 1;
  }
}

/** What a field's `@cost` and `@listSize` say, kept in its extensions for the printer below. */
interface CostAnnotations {
  cost?: { weight: number };
  listSize?: { slicingArguments: string[]; sizedFields: string[]; assumedSize: number; requireOneSlicingArgument: boolean };
}

const COSTS = 'bankCallCost';

/** The schema with `@cost` on every field that calls the bank and `@listSize` on every connection. */
export function withCostDirectives(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.COMPOSITE_FIELD]: (field, fieldName, typeName) => {
      const price = BANK_CALL_PRICES[`${typeName}.${fieldName}`];
      const annotations: CostAnnotations = {};
      if (price && weightOf(price) > 0) annotations.cost = { weight: weightOf(price) };
      if (field.args !== undefined && 'first' in field.args) {
        annotations.listSize = {
          slicingArguments: ['first', 'last'],
          sizedFields: ['edges', 'nodes'],
          assumedSize: DEFAULT_PAGE_SIZE,
          requireOneSlicingArgument: false,
        };
      }
      return Object.keys(annotations).length > 0 ? { ...field, extensions: { ...field.extensions, [COSTS]: annotations } } : field;
    },
  });
}

/**
 * graphql's printSchema with the cost directives applied: graphql-js prints no applied directive,
 * and graphql-tools' printer would also print the federation plugin's own annotations.
 */
export function printSchemaWithCosts(schema: GraphQLSchema): string {
  const document = parse(printSchema(schema));
  let typeName = '';
  return print(
    visit(document, {
      ObjectTypeDefinition: { enter: (node) => void (typeName = node.name.value) },
      InterfaceTypeDefinition: { enter: (node) => void (typeName = node.name.value) },
      FieldDefinition: (node) => {
        const type = schema.getType(typeName) as GraphQLObjectType | undefined;
        const annotations = type?.getFields?.()[node.name.value]?.extensions?.[COSTS] as CostAnnotations | undefined;
        if (!annotations) return undefined;
        const applied = Object.entries(annotations).map(([name, args]) => directiveNode(name, args as Record<string, unknown>));
        return { ...node, directives: [...(node.directives ?? []), ...applied] };
      },
    }),
  );
}

function directiveNode(name: string, args: Record<string, unknown>): ConstDirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: name },
    arguments: Object.entries(args).map(([argument, value]) => ({
      kind: Kind.ARGUMENT,
      name: { kind: Kind.NAME, value: argument },
      value: astFromValueUntyped(value) as ConstValueNode,
    })),
  };
}
