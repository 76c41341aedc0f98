import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GraphQLSchema } from 'graphql';
import { ALL_PERMISSIONS, PERMISSIONS, ROLE_NAMES, ROLES, withImplied, type Permission } from '../authorization/permissions.ts';
import { domainGuards, domainsOf } from '../authorization/domains.ts';
import { buildSchema } from '../schema/index.ts';
import { rootRequirements, type Requirement } from '../schema/requirements.ts';
import { withGenerated, writeOrCheck } from './generated-part.ts';

/**
 * `npm run permissions:docs`: docs/permissions.md's tables, written from the code itself (the
 * permissions table of src/authorization/permissions.ts and what each field of the schema declares); `-- --check`
 * fails instead when they drift, as a test does.
 */

export const DOC_PATH = fileURLToPath(new URL('../../docs/permissions.md', import.meta.url));
const MARKERS = {
  begin: '<!-- permissions: generated from src/authorization/permissions.ts and the schema by `npm run permissions:docs`; edit there -->',
  end: '<!-- permissions: end -->',
};

const code = (text: string) => `\`${text}\``;

/** The roles that hold `permission`, directly or by what another of theirs implies. */
function rolesHolding(permission: Permission): string[] {
  return ROLE_NAMES.filter((role) => withImplied(ROLES[role].permissions).has(permission));
}

/** What needs each permission, as the table writes it: root fields (`Query.accounts`), and every record of a type. */
function neededBy(schema: GraphQLSchema): Map<Permission, string[]> {
  const needs = new Map<Permission, string[]>(ALL_PERMISSIONS.map((permission) => [permission, []]));
  for (const { root, name, requirement } of rootRequirements(schema)) {
    if (requirement.kind === 'permission') needs.get(requirement.permission)!.push(code(`${root}.${name}`));
    if (requirement.kind === 'conditional') {
      needs.get(requirement.permission)!.push(code(`${root}.${name}`));
      needs.get(requirement.or)!.push(`${code(`${root}.${name}`)} when ${requirement.when}`);
    }
  }
  for (const [name, domain] of domainsOf(schema).domains) {
    if (domain.permission && domain.why === 'declared') needs.get(domain.permission)!.push(`every ${code(name)}`);
  }
  return needs;
}

function requirementCell(requirement: Requirement): string {
  switch (requirement.kind) {
    case 'permission':
      return code(requirement.permission);
    case 'conditional':
      return `${code(requirement.permission)}, or ${code(requirement.or)} when ${requirement.when}`;
    case 'anyone':
      return 'any caller';
    case 'undeclared':
      return '**nothing declared**';
  }
}

/** The generated part of docs/permissions.md: permissions, roles, and every root field. */
export function permissionTables(schema: GraphQLSchema = buildSchema()): string {
  const needs = neededBy(schema);
  const permissions = [
    '### Permissions',
    '',
    '| permission | lets a caller | needed by | roles that hold it |',
    '|---|---|---|---|',
    ...ALL_PERMISSIONS.map(
      (p) => `| ${code(p)} | ${PERMISSIONS[p]} | ${needs.get(p)!.join(', ') || '—'} | ${rolesHolding(p).map(code).join(', ')} |`,
    ),
  ];
  const roles = [
    '### Roles',
    '',
    '| role | for | permissions (with what they imply) |',
    '|---|---|---|',
    ...ROLE_NAMES.map(
      (role) =>
        `| ${code(role)} | ${ROLES[role].description} | ${ALL_PERMISSIONS.filter((p) => withImplied(ROLES[role].permissions).has(p))
          .map(code)
          .join(', ')} |`,
    ),
  ];
  const fields = [
    '### Every root field',
    '',
    '`node` and `nodes` need the permission of the type of the record the id names, checked before it is read.',
    '',
    '| field | needs |',
    '|---|---|',
    ...rootRequirements(schema).map(({ root, name, requirement }) => `| ${code(`${root}.${name}`)} | ${requirementCell(requirement)} |`),
  ];
  const links = [
    '### Links between domains',
    '',
    "A field that returns another domain's records checks that domain's permission before anything is read (found by walking the schema: src/authorization/domains.ts). A mutation's results are left out of this table, and their links are checked the same way.",
    '',
    '| field | needs |',
    '|---|---|',
    ...linksBetweenDomains(schema).map(([where, permission]) => `| ${code(where)} | ${code(permission)} |`),
  ];
  return [permissions.join('\n'), roles.join('\n'), fields.join('\n'), links.join('\n')].join('\n\n');
}

/** The guarded fields of record types: not the root fields (the table above) nor a mutation's Success types. */
function linksBetweenDomains(schema: GraphQLSchema): [string, Permission][] {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
  const { domains } = domainsOf(schema);
  return [...domainGuards(schema)]
    .filter(([where]) => {
      const parent = where.split('.')[0]!;
      return !roots.has(parent) && !domains.get(parent)?.why.startsWith("a mutation's result");
    })
    .toSorted(([a], [b]) => a.localeCompare(b));
}

export function withPermissionTables(doc: string, tables: string): string {
  return withGenerated(doc, MARKERS, tables, DOC_PATH);
}

function main(argv: string[]): number {
  const wanted = [{ path: DOC_PATH, text: withPermissionTables(readFileSync(DOC_PATH, 'utf8'), permissionTables()) }];
  return writeOrCheck(wanted, argv, 'npm run permissions:docs', 'the permissions docs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
