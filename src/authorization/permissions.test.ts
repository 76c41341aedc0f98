import { describe, expect, it } from 'vitest';
import { accessOf, ALL_PERMISSIONS, grantsFromValues, parseGrants, ROLE_NAMES, ROLES, withImplied } from './permissions.ts';

describe('the permissions table', () => {
  it('names each permission by domain and read or write, with what it lets a caller do', () => {
    for (const permission of ALL_PERMISSIONS) expect(permission).toMatch(/^[a-z-]+:(read|write|control|create)$/);
    expect(ALL_PERMISSIONS).toHaveLength(23);
  });

  it('lets whoever may write a record read it, and whoever may change a card freeze it', () => {
    expect([...withImplied(['payouts:write'])].sort()).toEqual(['payouts:read', 'payouts:write']);
    expect([...withImplied(['cards:write'])].sort()).toEqual(['cards:control', 'cards:read', 'cards:write']);
    expect([...withImplied(['conversions:write', 'quotes:write'])].sort()).toEqual(['conversions:write', 'fx:read', 'quotes:write']);
  });

  it('gives each role more than the one it builds on, and the viewer nothing to write', () => {
    const of = (role: (typeof ROLE_NAMES)[number]) => accessOf({ roles: [role] }).permissions;
    expect([...of('viewer')].filter((p) => !p.endsWith(':read'))).toEqual(['session:create']);
    for (const p of of('viewer')) expect(of('bookkeeper').has(p)).toBe(true);
    for (const p of of('bookkeeper')) expect(of('treasurer').has(p)).toBe(true);
    expect(of('bookkeeper').has('payouts:write')).toBe(false);
    expect(of('treasurer').has('payouts:write')).toBe(true);
    expect(of('admin').size).toBe(ALL_PERMISSIONS.length);
    expect(ROLES.cardholder.permissions).toEqual(['cards:read', 'cards:control', 'cardholders:read', 'wallets:read']);
  });
});

describe('a caller\u2019s access', () => {
  it('caps a caller bound to a cardholder at the cardholder role, whatever else it holds', () => {
    const bound = accessOf({ roles: ['admin'], permissions: ['payouts:write'], cardholderId: 'chd_1' });
    expect([...bound.permissions].sort()).toEqual(['cardholders:read', 'cards:control', 'cards:read', 'wallets:read']);
    expect(bound.cardholderId).toBe('chd_1');
  });

  it('reports the roles a caller acts with: a bound one the cardholder role at most', () => {
    expect(accessOf({ roles: ['admin', 'cardholder'], cardholderId: 'chd_1' }).roles).toEqual(['cardholder']);
    expect(accessOf({ roles: ['card-manager'], cardholderId: 'chd_1' }).roles).toEqual(['cardholder']);
    // A viewer may not freeze a card: under the cap it holds part of the role, and no role.
    const viewer = accessOf({ roles: ['viewer'], cardholderId: 'chd_1' });
    expect(viewer.roles).toEqual([]);
    expect([...viewer.permissions].sort()).toEqual(['cardholders:read', 'cards:read', 'wallets:read']);
    expect(accessOf({ permissions: [...ROLES.cardholder.permissions], cardholderId: 'chd_1' }).roles).toEqual([]);
    expect(accessOf({ roles: ['cardholder', 'viewer'] }).roles).toEqual(['viewer']);
    expect(accessOf({ roles: ['treasurer', 'treasurer'] }).roles).toEqual(['treasurer']);
  });

  it('grants nothing of the cardholder role without a binding: it would see every cardholder\u2019s cards', () => {
    expect([...accessOf({ roles: ['cardholder'] }).permissions]).toEqual([]);
    expect([...accessOf({ roles: ['cardholder'], permissions: ['fx:read'] }).permissions]).toEqual(['fx:read']);
  });

  it('reads claim values as roles and permissions, keeping the rest apart', () => {
    expect(grantsFromValues(['treasurer', 'payouts:read', 'Gateway.Admin', 'openid'])).toEqual({
      roles: ['treasurer'],
      permissions: ['payouts:read'],
      unknown: ['Gateway.Admin', 'openid'],
    });
  });
});

describe('grants as the configuration writes them', () => {
  it('reads role+role and cardholder@<id>', () => {
    expect(parseGrants('viewer+bookkeeper')).toEqual({ roles: ['viewer', 'bookkeeper'], cardholderId: null });
    expect(parseGrants('cardholder@chd_demo_ava')).toEqual({ roles: ['cardholder'], cardholderId: 'chd_demo_ava' });
  });

  it('says what is wrong with anything else', () => {
    expect(parseGrants('viewer++admin')).toEqual({ problem: expect.stringContaining('roles must be written role+role') });
    expect(parseGrants('cardholder@bad id')).toEqual({ problem: '"bad id" is not a cardholder id (letters, digits, . _ ~ -)' });
    expect(parseGrants('superuser')).toEqual({ problem: expect.stringContaining('unknown role "superuser"') });
    expect(parseGrants('viewer+admin+viewer')).toEqual({ problem: 'the role "viewer" is written twice' });
  });
});
