import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('starting with a bad configuration', () => {
  it('exits 1 and lists every problem', () => {
    const run = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, PORT: '99999', LOG_LEVEL: 'chatty', UPSTREAM_BASE_URL: 'https://bank.example' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration');
    for (const problem of [
      'PORT must be at most 65535',
      'LOG_LEVEL must be one of',
      'UPSTREAM_API_KEY is required when UPSTREAM_BASE_URL is set',
      'UPSTREAM_PRODUCT_ID is required when UPSTREAM_BASE_URL is set',
      'UPSTREAM_USER_ID is required when UPSTREAM_BASE_URL is set',
    ]) {
      expect(run.stderr).toContain(problem);
    }
  });
});
