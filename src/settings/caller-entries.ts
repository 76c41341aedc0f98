/**
 * The entries of the caller settings, each read with its rule: API keys by hash, bank users' roles,
 * passthrough's roles, JWT claim names and browser origins. Grants are read by authorization/permissions.ts.
 */

import { list, unsetIfEmpty } from '@banking-gateway/settings';
import { z } from 'zod';
import { parseGrants, ROLE_NAMES, type Grants } from '../authorization/permissions.ts';

const ROLES_TEXT = `roles: ${ROLE_NAMES.join(', ')}`;

/** `role+role`, or `cardholder@<cardholder id>`: the grants of an API key or a passthrough bank user (authorization/permissions.ts). */
function grantsIn(text: string, ctx: z.RefinementCtx, owner: string): Grants {
  const grants = parseGrants(text);
  if ('problem' in grants) {
    ctx.addIssue({ code: 'custom', message: `${owner}: ${grants.problem}` });
    return { roles: [], cardholderId: null };
  }
  return grants;
}

/** `name:sha256:roles`: a caller's API key by its hash, with what the caller may do. */
export const apiKeyHash = z.string().transform((entry, ctx) => {
  const [name = '', sha256 = '', grants, ...rest] = entry.split(':');
  if (!/^[A-Za-z0-9._-]+$/.test(name) || !/^[0-9a-fA-F]{64}$/.test(sha256) || rest.length > 0) {
    ctx.addIssue({ code: 'custom', message: 'entries must be name:sha256-hex:roles (see `npm run api-key`)' });
    return z.NEVER;
  }
  if (grants === undefined || grants.trim() === '') {
    ctx.addIssue({
      code: 'custom',
      message: `the key "${name}" has no roles, so it could do nothing: write it ${name}:${sha256.slice(0, 8)}…:role+role (${ROLES_TEXT}; cardholder@<cardholder id> for a key bound to one cardholder), e.g. ${name}:…:viewer`,
    });
    return z.NEVER;
  }
  return { name, sha256: sha256.toLowerCase(), ...grantsIn(grants, ctx, `the key "${name}"`) };
});

/** `bank-user:roles`: what one bank user (the `sub` of its bank token) may do through a passthrough gateway. */
export const bankUserGrants = z.string().transform((entry, ctx) => {
  const at = entry.lastIndexOf(':');
  if (at <= 0) {
    ctx.addIssue({ code: 'custom', message: 'entries must be bank-user:roles' });
    return z.NEVER;
  }
  const user = entry.slice(0, at);
  return { user, ...grantsIn(entry.slice(at + 1), ctx, `the bank user "${user}"`) };
});

/** Roles every passthrough bank user holds; no binding (one cardholder for every user makes no sense). */
export const passthroughRoles = z
  .preprocess(unsetIfEmpty, z.string().default('admin'))
  .transform((text, ctx) => {
    const grants = grantsIn(text, ctx, 'PASSTHROUGH_ROLES');
    if (grants.cardholderId !== null)
      ctx.addIssue({
        code: 'custom',
        message: 'PASSTHROUGH_ROLES cannot bind every bank user to one cardholder: bind users one by one in PASSTHROUGH_USER_ROLES',
      });
    return grants.roles;
  })
  .meta({ rule: `role+role (${ROLES_TEXT})` });

/** The claims of a JWT that grant roles or permissions: claim names, these by default. */
export function claimNames(defaults: readonly string[]) {
  const names = list(
    z.string().regex(/^[^\s,]+$/, { error: 'entries must be claim names' }),
    (item) => item,
    'claim names, comma-separated',
  );
  return z.preprocess((v) => (v === undefined || v === '' ? defaults.join(',') : v), names).meta({ rule: 'claim names, comma-separated' });
}

/** A browser origin allowed to call (ALLOWED_ORIGINS), or `*` for any. */
export const origin = z
  .string()
  .regex(/^(\*|https?:\/\/[^/\s]+)$/, { error: 'entries must be origins like https://app.example.com (or *)' });
