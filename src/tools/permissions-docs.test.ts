import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, permissionTables, withPermissionTables } from './permissions-docs.ts';

describe('the permissions docs', () => {
  it('are what the code says: docs/permissions.md (npm run permissions:docs writes its tables)', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(doc).toBe(withPermissionTables(doc, permissionTables()));
  });

  it('name, for each permission, what needs it and which roles hold it', () => {
    const tables = permissionTables();
    expect(tables).toContain(
      '| `payouts:write` | Send and cancel payouts. | `Mutation.payoutCancel`, `Mutation.payoutCreate` | `treasurer`, `admin` |',
    );
    expect(tables).toContain(
      '| `Mutation.cardUpdate` | `cards:write`, or `cards:control` when the input only changes status between ACTIVE and INACTIVE |',
    );
    expect(tables).toContain('| `Query.node` | any caller |');
    expect(tables).not.toContain('nothing declared');
  });
});
