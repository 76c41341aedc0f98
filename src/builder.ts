import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import DirectivePlugin from '@pothos/plugin-directives';
import ErrorsPlugin from '@pothos/plugin-errors';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin, { resolveNodes } from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import AuditPlugin from './audit/pothos-plugin.ts';
import ReadGuardPlugin from './authorization/read-guard.ts';
import type { GatewayContext } from './context.ts';
import { PermissionDeniedError, isPermission, type Permission } from './authorization/permissions.ts';
import { MAX_LIST_ARGUMENT } from './limits/page-size.ts';

/**
 * The one Pothos builder. It sets the conventions every domain follows (nullable by default, Relay
 * nodes and connections, typed mutation errors, validated input) and defines no domain types.
 */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  // Every root field declares the one permission it needs (authorization/permissions.ts), or `anyone` where any
  // caller may run it; Node types declare the permission that reads them.
  AuthScopes: { permission: Permission; anyone: boolean };
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
  // The audit outermost, to see each mutation's answer as the client gets it; errors next, so a
  // refusal becomes a mutation's Forbidden result; scope-auth, then the read guard: a field's own
  // permission before its input rules run (a caller without it learns nothing of its input), and a
  // field that returns another domain's records checks that domain's permission before it reads.
  // Federation last, after the plugins that wrap resolvers: its entities (schema/entities.ts) are
  // printed with their keys only in the subgraph schema (FEDERATION_SUBGRAPH).
  plugins: [
    AuditPlugin,
    ErrorsPlugin,
    ScopeAuthPlugin,
    ReadGuardPlugin,
    ValidationPlugin,
    RelayPlugin,
    DataloaderPlugin,
    DirectivePlugin,
    FederationPlugin,
  ],
  scopeAuth: {
    // A subscription is refused when it starts, not event by event.
    authorizeOnSubscribe: true,
    // A type's permission is checked once per record, not on each of its fields.
    runScopesOnType: true,
    authScopes: (context) => ({
      permission: (permission) => context.caller.access.permissions.has(permission),
      anyone: true,
    }),
    unauthorizedError: (_parent, _context, info, result) =>
      new PermissionDeniedError(missingPermission(result.failure), `${info.parentType.name}.${info.fieldName}`),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: { description: 'The items of this page, without cursors.' },
    nodeQueryOptions: {
      description:
        "Any entity of the graph by its global ID. Needs the permission that reads the entity's type (checked before anything is read).",
      args: { id: { description: 'A global ID, as found in any `id` field.' } },
      // The type's own permission decides, and is checked here before the read: a refusal depends on
      // the id's type alone, which the caller wrote, never on whether the record exists.
      authScopes: { anyone: true },
      resolve: (_root, args, context, _info, resolveNode) => {
        const refusal = refusalForType(args.id.typename, context);
        if (refusal) throw refusal;
        return resolveNode(args.id);
      },
    },
    nodesQueryOptions: {
      description:
        'Entities of the graph by their global IDs, in the order asked. Each needs the permission that reads its type: an entity the caller may not read is null with a FORBIDDEN error at its place, and is not read.',
      authScopes: { anyone: true },
      resolve: (_root, args, context, info) => readableNodes(args.ids, context, info),
      // Each id may cost an upstream read; limits/operation-limits.ts refuses more before execution.
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

/** `nodes(ids:)`: the records the caller may read, read; a refusal in place of each it may not (never read). */
async function readableNodes(
  ids: { typename: string; id: string }[],
  context: GatewayContext,
  info: GraphQLResolveInfo,
): Promise<unknown[]> {
  const refusals = ids.map((id) => refusalForType(id.typename, context));
  const nodes = await resolveNodes(
    builder,
    context,
    info,
    ids.map((id, i) => (refusals[i] ? null : id)),
  );
  return nodes.map((node, i) => refusals[i] ?? node);
}

/** The refusal for a read of a `typename` record, from the permission the type declares; undefined when the caller may. */
export function refusalForType(typename: string, context: GatewayContext): PermissionDeniedError | undefined {
  let scopes: unknown;
  try {
    scopes = (builder.configStore.getTypeConfig(typename).pothosOptions as { authScopes?: unknown }).authScopes;
  } catch {
    // No such type: the relay plugin answers for the id as it always does.
    return undefined;
  }
  const permission = (scopes as { permission?: Permission } | undefined)?.permission;
  return permission && !context.caller.access.permissions.has(permission)
    ? new PermissionDeniedError(permission, `reading a ${typename}`)
    : undefined;
}

/** The permission a failed check wanted (the first, where it wanted any of several). */
function missingPermission(failure: AuthFailure): Permission {
  const wanted = (f: AuthFailure): Permission | undefined => {
    if (f.kind === 'AuthScope' && f.scope === 'permission' && typeof f.parameter === 'string' && isPermission(f.parameter))
      return f.parameter;
    return 'failures' in f ? f.failures.map(wanted).find(Boolean) : undefined;
  };
  const permission = wanted(failure);
  // Every check of the schema names a permission (or is `anyone`, which never fails).
  if (!permission) throw new Error(`an authorization check failed without naming a permission (${failure.kind})`);
  return permission;
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

builder.queryType({ description: 'Reads: accounts, balances and their histories.' });
builder.mutationType({ description: "Writes, named noun first so a domain's mutations sit together." });
builder.subscriptionType({
  description:
    "Live updates from the bank's webhook events, over graphql-ws or server-sent events on the GraphQL path. Every event has a cursor; subscribe again with `after` set to the last one received to get what was missed, in order and none twice.",
});
