import type { CallerIdentity } from '../authentication/identity.ts';
import { builder } from '../builder.ts';
import { ALL_PERMISSIONS } from '../authorization/permissions.ts';
import { CardholderNode } from './cardholders.ts';
import { mayRun, requirementOf } from './requirements.ts';

/**
 * `Query.me`: who the gateway takes the caller to be and what it may do, so a frontend can hide the
 * buttons its user may not press. (`viewer` is the business the gateway acts for, Document 2, 4.5.)
 */

const CallerKind = builder.enumType('CallerKind', {
  description: 'How the caller proved who it is.',
  values: {
    API_KEY: { value: 'api-key' as const, description: 'An API key (x-api-key), named in the gateway\u2019s configuration.' },
    JWT: { value: 'jwt' as const, description: 'A JWT of the identity provider; the name is its subject.' },
    BANK_USER: { value: 'upstream-token' as const, description: 'The bank\u2019s own access token (passthrough); the name is the bank user it belongs to.' },
    ANONYMOUS: { value: 'anonymous' as const, description: 'No credential (the embedded sandbox, or passthrough before login).' },
  },
});

const Caller = builder.objectRef<CallerIdentity>('Caller').implement({
  description: 'Who is calling, as the gateway sees it, and what it may do (docs/permissions.md).',
  fields: (t) => ({
    kind: t.field({ type: CallerKind, nullable: false, description: 'How the caller proved who it is.', resolve: (caller) => caller.kind }),
    name: t.exposeString('name', {
      nullable: false,
      description: 'The API key\u2019s name, the JWT subject, the bank user, or `anonymous`: the name the logs and the audit trail give the caller.',
    }),
    roles: t.stringList({ nullable: false, description: 'The roles the caller acts with: those configured or claimed, capped at `cardholder` for a caller bound to one cardholder (none when what it holds is less than that role).', resolve: (caller) => [...caller.access.roles] }),
    permissions: t.stringList({
      nullable: false,
      description: 'Every permission the caller holds, roles and implied permissions included, in the order of the permissions table.',
      resolve: (caller) => ALL_PERMISSIONS.filter((permission) => caller.access.permissions.has(permission)),
    }),
    mutations: t.stringList({
      nullable: false,
      description: 'The mutations the caller may run (cardUpdate when it may at least freeze and unfreeze), in name order: the rest answer Forbidden.',
      resolve: (caller, _args, _context, info) =>
        Object.values(info.schema.getMutationType()?.getFields() ?? {})
          .filter((field) => mayRun(requirementOf(field), caller.access.permissions))
          .map((field) => field.name)
          .sort(),
    }),
    cardholderUpstreamId: t.string({
      description: 'The bank id of the cardholder the caller is bound to (the mobile card app): it sees that cardholder\u2019s records only. Null for every other caller.',
      resolve: (caller) => caller.access.cardholderId,
    }),
    cardholder: t.field({
      type: CardholderNode,
      description: 'The cardholder the caller is bound to, read now; null for a caller bound to none.',
      resolve: (caller) => caller.access.cardholderId,
    }),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    authScopes: { anyone: true },
    type: Caller,
    nullable: false,
    description: 'Who the gateway takes the caller to be: its name, roles, permissions and cardholder binding.',
    resolve: (_root, _args, context) => context.caller,
  }),
);
