import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApiKeyMatcher, sha256Hex } from '../../src/authentication/api-keys.ts';
import { loadConfig } from '../../src/settings/index.ts';

/** `npm run api-key` (src/tools/api-key.ts) as an operator runs it: a process of its own. */

describe('npm run api-key', () => {
  const tool = fileURLToPath(new URL('../../src/tools/api-key.ts', import.meta.url));
  it('prints a fresh key and the GATEWAY_API_KEY_HASHES entry that accepts it', () => {
    const runs = [1, 2].map(() =>
      spawnSync(process.execPath, [tool, 'svc-reporting', 'viewer+bookkeeper'], { encoding: 'utf8', timeout: 20_000 }),
    );
    const parsed = runs.map((run) => {
      expect(run.status).toBe(0);
      const [, key, , entry] = run.stdout.split('\n').map((line) => line.trim());
      return { key: key!, entry: entry! };
    });
    expect(parsed[0]!.key).toMatch(/^gwk_[A-Za-z0-9_-]{43}$/);
    expect(parsed[0]!.key).not.toBe(parsed[1]!.key);
    expect(parsed[0]!.entry).toBe(`svc-reporting:${sha256Hex(parsed[0]!.key)}:viewer+bookkeeper`);
    const config = loadConfig({
      AUTH_MODE: 'service',
      GATEWAY_API_KEY_HASHES: `${parsed[0]!.entry},${parsed[1]!.entry.replace('svc-reporting', 'other')}`,
    });
    expect(config.auth.apiKeys.map((k) => k.name)).toEqual(['svc-reporting', 'other']);
    expect(config.auth.apiKeys.map((k) => k.roles)).toEqual([
      ['viewer', 'bookkeeper'],
      ['viewer', 'bookkeeper'],
    ]);
    expect(createApiKeyMatcher(config.auth.apiKeys)(parsed[1]!.key)).toBe('other');
  });
  it('refuses a name that could not be an entry', () => {
    const run = spawnSync(process.execPath, [tool, 'bad name', 'viewer'], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('may hold only letters, digits');
    expect(run.stdout).toBe('');
  });
  it('refuses a key without roles, or with roles that do not exist, saying which there are', () => {
    const none = spawnSync(process.execPath, [tool, 'dashboard'], { encoding: 'utf8', timeout: 20_000 });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Give the key a name and its roles');
    expect(none.stderr).toContain('viewer, bookkeeper, treasurer, card-manager, admin, cardholder');
    const unknown = spawnSync(process.execPath, [tool, 'dashboard', 'viewer+god'], { encoding: 'utf8', timeout: 20_000 });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown role "god"');
    expect(unknown.stdout).toBe('');
  });
});
