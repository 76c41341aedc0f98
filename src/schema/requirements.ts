import type { GraphQLSchema } from 'graphql';
import { isPermission, type Permission } from '../authorization/permissions.ts';

/**
 * What each root field needs, read back from the schema's own declarations (the `authScopes` each
 * field gives @pothos/plugin-scope-auth): the one source for the descriptions GraphiQL shows, for
 * `me.mutations`, for docs/permissions.md and for the test that every root field declares one.
 */
export type Requirement =
  /** The permission the field needs. */
  | { kind: 'permission'; permission: Permission }
  /** A permission, or a lesser one for some inputs (cardUpdate: freezing needs only cards:control). */
  | { kind: 'conditional'; permission: Permission; or: Permission; when: string }
  /** Any caller may run it; for `node` and `nodes`, the record's type then needs its permission. */
  | { kind: 'anyone' }
  /** Nothing declared: a mistake the schema test catches. */
  | { kind: 'undeclared' };

interface Declared {
  pothosOptions?: { authScopes?: unknown };
  permission?: { needs?: unknown; or?: unknown; when?: unknown };
}

export function requirementOf(field: { extensions?: unknown }): Requirement {
  const extensions = (field.extensions ?? {}) as Declared;
  const scopes = extensions.pothosOptions?.authScopes;
  const conditional = extensions.permission;
  if (typeof scopes === 'function' && conditional && typeof conditional.needs === 'string' && typeof conditional.or === 'string') {
    if (isPermission(conditional.needs) && isPermission(conditional.or)) {
      return { kind: 'conditional', permission: conditional.needs, or: conditional.or, when: String(conditional.when) };
    }
  }
  if (typeof scopes === 'object' && scopes !== null) {
    const { permission, anyone } = scopes as { permission?: unknown; anyone?: unknown };
    if (typeof permission === 'string' && isPermission(permission)) return { kind: 'permission', permission };
    if (anyone === true) return { kind: 'anyone' };
  }
  return { kind: 'undeclared' };
}

/** The permission that reads records of a type, as the type declares it (its type-level `authScopes`). */
export function typePermission(type: { extensions?: unknown }): Permission | undefined {
  const permission = ((type.extensions ?? {}) as Declared).pothosOptions?.authScopes as { permission?: unknown } | undefined;
  return typeof permission?.permission === 'string' && isPermission(permission.permission) ? permission.permission : undefined;
}

export type RootKind = 'Query' | 'Mutation' | 'Subscription';

/** Every root field with its requirement, Query first, each type's fields in name order. */
export function rootRequirements(schema: GraphQLSchema): { root: RootKind; name: string; requirement: Requirement; description: string }[] {
  const roots: [RootKind, ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['Query', schema.getQueryType()],
    ['Mutation', schema.getMutationType()],
    ['Subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([root, type]) =>
    Object.values(type?.getFields() ?? {})
      .toSorted((a, b) => a.name.localeCompare(b.name))
      .map((field) => ({ root, name: field.name, requirement: requirementOf(field), description: field.description ?? '' })),
  );
}

/** Whether a caller holding `permissions` may run a field of this requirement (for some input). */
export function mayRun(requirement: Requirement, permissions: ReadonlySet<Permission>): boolean {
  switch (requirement.kind) {
    case 'permission':
      return permissions.has(requirement.permission);
    case 'conditional':
      return permissions.has(requirement.permission) || permissions.has(requirement.or);
    case 'anyone':
      return true;
    case 'undeclared':
      return false;
  }
}

/** The sentence GraphiQL shows under a root field's description. */
export function requirementText(requirement: Requirement): string {
  switch (requirement.kind) {
    case 'permission':
      return `Needs the permission \`${requirement.permission}\`.`;
    case 'conditional':
      return `Needs the permission \`${requirement.permission}\`, or only \`${requirement.or}\` when ${requirement.when}.`;
    case 'anyone':
      return 'Any caller may run it.';
    case 'undeclared':
      return '';
  }
}
