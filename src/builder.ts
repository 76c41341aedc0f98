import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { z } from 'zod';
import type { GatewayContext } from './context.ts';
import { MAX_LIST_ARGUMENT } from './security/page-size.ts';
import { CountryCodeScalar, CurrencyScalar, DateOrDateTimeScalar, DateScalar, DateTimeScalar, DecimalScalar, JSONObjectScalar, JSONScalar } from './scalars.ts';

/**
 * The one Pothos builder. It sets the conventions every domain follows (nullable by default, Relay
 * nodes and connections, typed mutation errors, validated input) and defines no domain types.
 */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  DefaultFieldNullability: true;
  // A page holds items, not holes: edges and their nodes are non-null, so clients' generated types
  // need no null checks inside a page.
  DefaultEdgesNullability: { list: false; items: false };
  DefaultNodeNullability: false;
  Scalars: {
    Decimal: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    Date: { Input: string; Output: string };
    CountryCode: { Input: string; Output: string };
    Currency: { Input: string; Output: string };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    JSON: { Input: unknown; Output: unknown };
    DateOrDateTime: { Input: string; Output: string };
    ID: { Input: string; Output: string };
  };
}>({
  plugins: [ErrorsPlugin, ValidationPlugin, RelayPlugin, DataloaderPlugin],
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: { description: 'The items of this page, without cursors.' },
    nodeQueryOptions: {
      description: 'Any entity of the graph by its global ID.',
      args: { id: { description: 'A global ID, as found in any `id` field.' } },
    },
    nodesQueryOptions: {
      description: 'Entities of the graph by their global IDs, in the order asked.',
      // Each id may cost an upstream read; security/operation-limits.ts refuses more before execution.
      args: {
        ids: {
          description: `Global IDs, as found in \`id\` fields; at most ${MAX_LIST_ARGUMENT}.`,
          validate: z.array(z.unknown()).max(MAX_LIST_ARGUMENT, `must hold at most ${MAX_LIST_ARGUMENT} items`),
        },
      },
    },
    nodeTypeOptions: { description: 'An entity with a global ID that `node` and `nodes` can fetch again.' },
    pageInfoTypeOptions: { description: 'Where a page of a connection sits in the whole list.' },
    idFieldOptions: { description: 'Global ID: opaque, stable, resolvable with `node`.' },
    defaultConnectionTypeOptions: { description: 'One page of a list, with its place in the whole list.' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with the cursor that points at it.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.', nullable: { list: false, items: false } },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list.' },
    cursorFieldOptions: { description: 'Opaque cursor for `after`/`before`.' },
    nodeFieldOptions: { description: 'The item.', nullable: false },
    hasNextPageFieldOptions: { description: 'True when items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'True when items precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first item of the page.' },
    endCursorFieldOptions: { description: 'Cursor of the last item of the page.' },
    firstArgOptions: { description: 'Take the first N items (at most 100; default 20).' },
    lastArgOptions: { description: 'Take the last N items (needs `before`; at most 100).' },
    afterArgOptions: { description: 'Start after this cursor.' },
    beforeArgOptions: { description: 'End before this cursor.' },
  },
  errors: {
    // Validation failures of a mutation's input come back as a typed ValidationError result.
    unsafelyHandleInputErrors: true,
    defaultResultOptions: {
      name: ({ fieldName }) => `${capitalise(fieldName)}Success`,
      description: 'The mutation succeeded; the field holds what it produced.',
    },
    defaultUnionOptions: {
      name: ({ fieldName }) => `${capitalise(fieldName)}Result`,
      description: 'Outcome of a mutation: its Success type, or a typed error (every error implements MutationError).',
    },
  },
});

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

builder.addScalarType('Decimal', DecimalScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('Date', DateScalar);
builder.addScalarType('CountryCode', CountryCodeScalar);
builder.addScalarType('Currency', CurrencyScalar);
builder.addScalarType('JSONObject', JSONObjectScalar);
builder.addScalarType('JSON', JSONScalar);
builder.addScalarType('DateOrDateTime', DateOrDateTimeScalar);

builder.queryType({ description: 'Reads: accounts, balances and their histories.' });
builder.mutationType({ description: 'Writes, named noun first so a domain\'s mutations sit together.' });
builder.subscriptionType({
  description:
    "Live updates from the bank's webhook events, over graphql-ws or server-sent events on the GraphQL path. Every event has a cursor; subscribe again with `after` set to the last one received to get what was missed, in order and none twice.",
});
