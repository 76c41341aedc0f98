import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 15, point 5: docs/errors.md lists every error code the gateway can answer with, and every
// mutation error member: the list is held to the source, so a new code cannot go undocumented.

const root = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
const schema = readFileSync(join(root, 'schema/schema.graphql'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'sandbox' ? [] : sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The string members of `export type <name> = 'A' | 'B' ...;`. */
function unionMembers(text: string, name: string): string[] {
  const declaration = new RegExp(`export type ${name} =([^;]+);`).exec(text)?.[1] ?? '';
  return [...declaration.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]!);
}

describe('docs/errors.md', () => {
  it('names every extensions.code the gateway sets', () => {
    const text = sources(join(root, 'src')).join('\n');
    const codes = new Set([
      ...[...text.matchAll(/code: '([A-Z][A-Z_]{4,})'/g)].map((match) => match[1]!),
      ...[...text.matchAll(/refusal\('([A-Z_]+)'/g)].map((match) => match[1]!),
      ...unionMembers(text, 'RefusalCode'),
      ...unionMembers(text, 'UnavailableReason'),
      'AUTH_UNAVAILABLE',
      'INTERNAL_SERVER_ERROR',
    ]);
    expect(codes.size).toBeGreaterThan(15);
    expect([...codes].filter((code) => !doc.includes(`\`${code}\``))).toEqual([]);
  });

  it('names every member of the mutation error interface', () => {
    const members = [...schema.matchAll(/^type (\w+) implements[^{]*\bMutationError\b/gm)].map((match) => match[1]!);
    expect(members.length).toBeGreaterThan(3);
    expect(members.filter((member) => !doc.includes(`\`${member}\``))).toEqual([]);
  });
});
