/**
 * Who may do what: the one table of permissions and the built-in roles over them. The bank's token
 * carries no scopes (Document 1, section 5: "Scopes or permissions carried by the token: not
 * shown"), so this table is the only place where "who may do what" lives. Every root field of the
 * graph names the one permission it needs (the schema declares it with @pothos/plugin-scope-auth);
 * docs/permissions.md is generated from these declarations (`npm run permissions:docs`).
 */

/** Every permission, by domain and read/write, with what it lets a caller do. */
export const PERMISSIONS = {
  'session:create': 'Log in to the bank with client credentials of its own (accessTokenCreate).',
  'business:read': 'The business profile and its requests for information; account status and RFI events.',
  'accounts:read': 'Accounts, balances, account transactions and balance history; deposit events.',
  'accounts:write': 'Open and close accounts.',
  'beneficiaries:read': 'Beneficiaries and the bank\u2019s beneficiary rules.',
  'beneficiaries:write': 'Create, change and delete beneficiaries.',
  'payouts:read':
    'Payouts; payout funding events (their beneficiary\u2019s details need beneficiaries:read, the payer\u2019s business:read).',
  'payouts:write': 'Send and cancel payouts.',
  'fx:read': 'FX rates, quotes and conversions; conversion events.',
  'quotes:write': 'Lock FX quotes (which a payout or a conversion then uses).',
  'conversions:write': 'Book conversions between currencies.',
  'cards:read': 'Cards, their details and transactions; card events.',
  'cards:control':
    'Freeze and unfreeze a card (cardUpdate changing only its status between ACTIVE and INACTIVE), activate it, set its PIN; a caller bound to a cardholder unfreezes only a freeze of its own.',
  'cards:write': 'Issue, assign and load cards; change their limits and controls, and close them.',
  'cardholders:read': 'Cardholders and their KYC state; cardholder events.',
  'cardholders:write': 'Create, change and delete cardholders.',
  'wallets:read': 'Cardholders\u2019 wallets and their history.',
  'wallets:write': 'Create wallets.',
  'direct-debit:read': 'Global accounts, direct debit mandates and collections; direct debit events.',
  'direct-debit:write': 'Cancel mandates and direct debit collections.',
  'webhooks:read': 'The bank\u2019s webhook catalogue and the webhook subscriptions filed there.',
  'webhooks:write': 'File, change and delete webhook subscriptions at the bank.',
  'events:read':
    'The stream of bank events (bankEvents): each event also needs the read permission of its record\u2019s domain (card events cards:read, deposit events accounts:read...); an event the gateway has no model for needs every read permission.',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}

/**
 * A permission that grants others with it: whoever may write a kind of record may read it (so a
 * write's own answer is never refused), and whoever may change everything about a card may also
 * freeze it.
 */
const IMPLIES: Partial<Record<Permission, Permission[]>> = {
  'accounts:write': ['accounts:read'],
  'beneficiaries:write': ['beneficiaries:read'],
  'payouts:write': ['payouts:read'],
  'quotes:write': ['fx:read'],
  'conversions:write': ['fx:read'],
  'cards:write': ['cards:control', 'cards:read'],
  'cards:control': ['cards:read'],
  'cardholders:write': ['cardholders:read'],
  'wallets:write': ['wallets:read'],
  'direct-debit:write': ['direct-debit:read'],
  'webhooks:write': ['webhooks:read'],
};

const READS = ALL_PERMISSIONS.filter((p) => p.endsWith(':read'));

/** The built-in roles: what each may do, and who it is for. */
export const ROLES = {
  viewer: {
    description: 'Looks at everything (a read-only dashboard), changes nothing.',
    permissions: ['session:create', ...READS],
  },
  bookkeeper: {
    description: 'A viewer who also prepares payments: beneficiaries and FX quotes.',
    permissions: ['session:create', ...READS, 'beneficiaries:write', 'quotes:write'],
  },
  treasurer: {
    description: 'A bookkeeper who also sends money: payouts and conversions, and cancels direct debits.',
    permissions: [
      'session:create',
      ...READS,
      'beneficiaries:write',
      'quotes:write',
      'payouts:write',
      'conversions:write',
      'direct-debit:write',
    ],
  },
  'card-manager': {
    description: 'A viewer who also runs the card program: cardholders, cards and wallets.',
    permissions: ['session:create', ...READS, 'cardholders:write', 'cards:write', 'wallets:write'],
  },
  admin: {
    description: 'Everything, webhook subscriptions and opening or closing accounts included.',
    permissions: ALL_PERMISSIONS,
  },
  cardholder: {
    description:
      'One cardholder on their own phone: sees their own record, cards, wallets, card transactions and KYC state, and may freeze, unfreeze and activate their own cards. Always bound to one cardholder.',
    permissions: ['cards:read', 'cards:control', 'cardholders:read', 'wallets:read'],
  },
} as const satisfies Record<string, { description: string; permissions: readonly Permission[] }>;

export type Role = keyof typeof ROLES;

export const ROLE_NAMES = Object.keys(ROLES) as Role[];

function isRole(value: string): value is Role {
  return Object.hasOwn(ROLES, value);
}

/** The role a cardholder-bound caller holds: a binding caps whatever else it was given at this role's permissions. */
const CARDHOLDER_ROLE: Role = 'cardholder';

/** `permissions` with every permission they imply. */
export function withImplied(permissions: Iterable<Permission>): Set<Permission> {
  const all = new Set<Permission>();
  const add = (permission: Permission) => {
    if (all.has(permission)) return;
    all.add(permission);
    for (const implied of IMPLIES[permission] ?? []) add(implied);
  };
  for (const permission of permissions) add(permission);
  return all;
}

/** What a caller may do: its roles and the permissions they (and any granted directly) give. */
export interface Access {
  /**
   * The roles the caller acts with: those configured or claimed, after the cardholder cap (a bound
   * caller acts as `cardholder` at most) and without an unbound `cardholder`, which grants nothing.
   */
  readonly roles: readonly string[];
  readonly permissions: ReadonlySet<Permission>;
  /** The cardholder a caller is bound to (the mobile card app): it sees that cardholder's records only. */
  readonly cardholderId: string | null;
}

/** Nothing at all: a caller no configured grant reaches. */
export const NO_ACCESS: Access = { roles: [], permissions: new Set(), cardholderId: null };

/**
 * The access of roles and permissions granted to a caller. A binding to a cardholder caps the result
 * at the cardholder role, whatever else was granted: a bound caller only ever sees its own records.
 * The cardholder role without a binding grants nothing (it would otherwise see every cardholder's
 * cards): the caller gets the other grants only. The roles reported are the ones the caller acts
 * with (`me`, the audit trail), never more than its permissions bear out.
 */
export function accessOf(grants: { roles?: readonly Role[]; permissions?: readonly Permission[]; cardholderId?: string | null }): Access {
  const cardholderId = grants.cardholderId ?? null;
  const roles = [...new Set(grants.roles ?? [])].filter((role) => cardholderId !== null || role !== CARDHOLDER_ROLE);
  let permissions = withImplied([...roles.flatMap((role) => ROLES[role].permissions), ...(grants.permissions ?? [])]);
  if (cardholderId === null) return { roles, permissions, cardholderId };
  const cap = new Set<Permission>(ROLES[CARDHOLDER_ROLE].permissions);
  permissions = new Set([...permissions].filter((permission) => cap.has(permission)));
  return { roles: rolesUnderCap(roles, permissions), permissions, cardholderId };
}

/**
 * A bound caller's roles: `cardholder` when the roles it was given reach the whole cardholder role
 * (`admin`, `card-manager`, `cardholder`), none when they reach only part of it (a `viewer` may not
 * freeze a card): its permissions then say what it holds.
 */
function rolesUnderCap(granted: readonly Role[], capped: ReadonlySet<Permission>): Role[] {
  const whole = granted.length > 0 && ROLES[CARDHOLDER_ROLE].permissions.every((permission) => capped.has(permission));
  return whole ? [CARDHOLDER_ROLE] : [];
}

/**
 * The JWT claims read by default: roles from a `roles` array only; permissions from OAuth's `scope`
 * string and the `scp` array, which an OAuth client may often fill with strings of its choosing, so
 * they grant no role unless the operator says so; and the claim that binds a cardholder.
 */
export const DEFAULT_JWT_ROLE_CLAIMS = ['roles'];
export const DEFAULT_JWT_PERMISSION_CLAIMS = ['scope', 'scp'];
export const DEFAULT_JWT_CARDHOLDER_CLAIM = 'cardholder_id';

/**
 * Values of an identity provider's claims (`scope`, `scp`, `roles`...) read as roles and
 * permissions: each value names a role or a permission of this table; the rest are `unknown`.
 */
export function grantsFromValues(values: Iterable<string>): { roles: Role[]; permissions: Permission[]; unknown: string[] } {
  const grants = { roles: [] as Role[], permissions: [] as Permission[], unknown: [] as string[] };
  for (const value of values) {
    if (isRole(value)) grants.roles.push(value);
    else if (isPermission(value)) grants.permissions.push(value);
    else grants.unknown.push(value);
  }
  return grants;
}

/** Roles granted to a configured caller (an API key, a passthrough bank user), and its cardholder binding. */
export interface Grants {
  roles: Role[];
  cardholderId: string | null;
}

const BANK_ID = /^[A-Za-z0-9._~-]{1,128}$/;

/** What a cardholder id must be (a bank id), in words. */
export const CARDHOLDER_ID_RULE = 'a string of 1 to 128 letters, digits, . _ ~ or -';

export function isCardholderId(value: unknown): value is string {
  return typeof value === 'string' && BANK_ID.test(value);
}

/**
 * Grants as the configuration writes them: `role+role`, or `cardholder@<cardholder id>` for a caller
 * bound to one cardholder. Returns the problem in words when the text is not that.
 */
export function parseGrants(text: string): Grants | { problem: string } {
  const names = text.split('+').map((name) => name.trim());
  if (names.length === 0 || names.some((name) => name === ''))
    return { problem: `roles must be written role+role (roles: ${ROLE_NAMES.join(', ')})` };
  const bound = names.filter((name) => name.startsWith(`${CARDHOLDER_ROLE}@`));
  if (bound.length > 0) {
    if (names.length > 1)
      return { problem: `a caller bound to a cardholder holds the ${CARDHOLDER_ROLE} role alone (${CARDHOLDER_ROLE}@<cardholder id>)` };
    const cardholderId = bound[0]!.slice(CARDHOLDER_ROLE.length + 1);
    if (!isCardholderId(cardholderId)) return { problem: `"${cardholderId}" is not a cardholder id (letters, digits, . _ ~ -)` };
    return { roles: [CARDHOLDER_ROLE], cardholderId };
  }
  const unknown = names.filter((name) => !isRole(name));
  if (unknown.length > 0) return { problem: `unknown role ${unknown.map((n) => `"${n}"`).join(', ')} (roles: ${ROLE_NAMES.join(', ')})` };
  if (names.includes(CARDHOLDER_ROLE))
    return { problem: `the ${CARDHOLDER_ROLE} role is bound to one cardholder: write ${CARDHOLDER_ROLE}@<cardholder id>` };
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return { problem: `the role "${twice}" is written twice` };
  return { roles: names as Role[], cardholderId: null };
}

/**
 * A caller without the permission an operation needs. A mutation answers it as its `Forbidden`
 * result; a query or subscription field as an error with code FORBIDDEN. Nothing was sent to the bank.
 */
export class PermissionDeniedError extends Error {
  readonly permission: Permission;
  constructor(permission: Permission, what?: string) {
    super(`Forbidden: ${what ?? 'this'} needs the permission ${permission}, which this caller does not have`);
    this.name = 'PermissionDeniedError';
    this.permission = permission;
  }
}
