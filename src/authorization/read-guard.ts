import SchemaBuilder, { BasePlugin, unwrapOutputFieldType, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { PermissionDeniedError, type Permission } from './permissions.ts';
import { domainGuards } from './domains.ts';

/**
 * Refuses before reading. Two checks scope-auth does not make early enough:
 *
 * - A field whose type carries another domain's data (a card's cardholder, a cardholder's cards, a
 *   payout's quote) needs that domain's permission, derived from the type it returns when the schema
 *   is built (domains.ts), and checked before its resolver, so no loader or bank call runs for a
 *   caller who may not see the result. Scope-auth's type scopes (runScopesOnType) are checked only
 *   once a record was read, and not at all for an empty list, so the answer would tell whether it
 *   exists.
 * - A field's own permission is checked before its input rules: the validation plugin maps (and
 *   validates) arguments outside every plugin's resolver wrapper, so without this a caller without
 *   the permission would learn each input rule from its error.
 *
 * A Pothos plugin of our own: scope-auth has no "check before the arguments are mapped" step and no
 * field scopes derived from the returned type. Off, like scope-auth, with `disableScopeAuth` (the
 * benchmark's baseline).
 */
class PothosReadGuardPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  /** `Parent.field` → the permission it checks first; filled once the schema is built. */
  private guards: ReadonlyMap<string, Permission> = new Map();

  override afterBuild(schema: GraphQLSchema): GraphQLSchema {
    if (!this.disabled()) this.guards = domainGuards(schema);
    return schema;
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    // A field with input rules checks it around them instead (wrapArgMappers).
    if (this.disabled() || !this.returnsObjects(fieldConfig) || fieldConfig.argMappers.length > 0) return resolver;
    const guard = this.guardOf(fieldConfig);
    return (parent, args, context, info) => {
      guard(context);
      return resolver(parent, args, context, info);
    };
  }

  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (this.disabled() || fieldConfig.argMappers.length === 0) return resolver;
    const scopes = (fieldConfig.pothosOptions as { authScopes?: unknown }).authScopes;
    const where = `${fieldConfig.parentType}.${fieldConfig.name}`;
    const guard = this.returnsObjects(fieldConfig) ? this.guardOf(fieldConfig) : undefined;
    return (parent, args, context, info) => {
      // Raw arguments: a scope that depends on them (cardUpdate's) reads only their shape, which GraphQL already checked.
      const needed =
        scopes === undefined ? null : permissionOf(typeof scopes === 'function' ? scopes(parent, args, context, info) : scopes);
      if (needed !== null) refuseWithout(needed, context, where);
      guard?.(context);
      return resolver(parent, args, context, info);
    };
  }

  /** The check of another domain's permission a field makes first, if its type carries one. */
  private guardOf(fieldConfig: PothosOutputFieldConfig<Types>): (context: object) => void {
    const where = `${fieldConfig.parentType}.${fieldConfig.name}`;
    // Read once, at the first resolution: the schema (and so the guards) is built by then.
    let needed: Permission | null | undefined;
    return (context) => {
      needed ??= this.guards.get(where) ?? null;
      if (needed !== null) refuseWithout(needed, context, where);
    };
  }

  private disabled(): boolean {
    return this.options.disableScopeAuth === true;
  }

  /** Scalars and enums carry their parent's data: only fields of object, interface and union types can reach another domain. */
  private returnsObjects(fieldConfig: PothosOutputFieldConfig<Types>): boolean {
    const kind = this.buildCache.getTypeConfig(unwrapOutputFieldType(fieldConfig.type)).graphqlKind;
    return kind === 'Object' || kind === 'Interface' || kind === 'Union';
  }
}

function refuseWithout(permission: Permission, context: object, where: string): void {
  const { permissions } = (context as { caller: { access: { permissions: ReadonlySet<Permission> } } }).caller.access;
  if (!permissions.has(permission)) throw new PermissionDeniedError(permission, where);
}

/** The permission a field's scopes name; null for `anyone`. Every root field declares one or the other (schema/requirements.ts). */
function permissionOf(scopes: unknown): Permission | null {
  const permission = (scopes as { permission?: Permission } | null)?.permission;
  return typeof permission === 'string' ? permission : null;
}

const pluginName = 'readGuard';
export default pluginName;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos' types live in a global namespace that only a namespace declaration can augment
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      readGuard: PothosReadGuardPlugin<Types>;
    }
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merging into Pothos' interface takes its type parameters, names and all
    interface ObjectTypeOptions<Types extends SchemaTypes = SchemaTypes, Shape = unknown> {
      /**
       * The read permission of the data this type carries, for a type that is not a Node (a Node
       * declares it with authScopes): every field that returns it from another domain checks it first
       * (src/authorization/domains.ts).
       */
      readPermission?: import('./permissions.ts').Permission;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, PothosReadGuardPlugin);
