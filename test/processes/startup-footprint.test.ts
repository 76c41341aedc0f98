import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bareEnv } from '../helpers/bare-env.ts';

/**
 * What a gateway holds from its start: the packages that only some settings need are loaded when
 * those settings ask for them (src/platform/on-first-use.ts), and the sandbox's code only by an embedded start.
 * Every module loaded stays in the heap for the life of the process, and V8 lets a heap grow to a
 * multiple of what it keeps, so each is paid for several times over in peak RSS.
 */

const src = (path: string) => new URL(`../../src/${path}`, import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'footprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * In a fresh process: a gateway made as the benchmark's gateway process makes it (bench/gateway-child.ts),
 * from `env`, its logger on a file; prints every module URL that process loaded.
 */
function modulesLoaded(env: Record<string, string>): string[] {
  const script = join(dir, 'start.mjs');
  writeFileSync(
    script,
    `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
const { loadConfig } = await import(${JSON.stringify(src('settings/index.ts'))});
const { createGateway } = await import(${JSON.stringify(src('gateway.ts'))});
const { createLogger, stdoutLines } = await import(${JSON.stringify(src('platform/logger.ts'))});
const { sandboxUpstreamConfig } = await import(${JSON.stringify(src('start/sandbox-upstream.ts'))});
const config = loadConfig(process.env);
const upstream = { ...sandboxUpstreamConfig({ url: 'http://127.0.0.1:9' }), concurrency: config.concurrency };
const gateway = createGateway({ logger: createLogger('info', stdoutLines(${JSON.stringify(join(dir, 'log'))})), upstream, webhooks: { apiKey: 'k'.repeat(32), signingSecret: 's'.repeat(32) }, clientRateLimit: config.clientRateLimit, liveQueries: config.liveQueries });
await gateway.events.ready;
process.stdout.write(JSON.stringify(loaded));
process.exit(0);
`,
  );
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000, env: bareEnv(env) });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

const fromPackage = (urls: string[], name: string) => urls.filter((url) => url.includes(`/node_modules/${name}/`));

describe('a gateway started with the shipped settings', () => {
  it('loads neither ioredis, rate-limiter-flexible, pino-pretty, jose nor the tracing conventions, nor the sandbox beyond its demo credentials', () => {
    const loaded = modulesLoaded({});
    // The check can fail: the gateway's own packages are in the list.
    expect(fromPackage(loaded, 'graphql-yoga').length).toBeGreaterThan(0);
    expect(fromPackage(loaded, 'ioredis')).toEqual([]);
    expect(fromPackage(loaded, 'rate-limiter-flexible')).toEqual([]);
    expect(fromPackage(loaded, 'pino-pretty')).toEqual([]);
    expect(fromPackage(loaded, 'jose')).toEqual([]);
    expect(fromPackage(loaded, '@opentelemetry/semantic-conventions')).toEqual([]);
    expect(loaded.filter((url) => url.includes('/sandbox/src/'))).toEqual([expect.stringMatching(/\/sandbox\/src\/credentials\.ts$/)]);
  });

  it('loads rate-limiter-flexible once a client rate limit is set', () => {
    const loaded = modulesLoaded({ CLIENT_RATE_LIMIT_OPERATIONS: '100' });
    expect(fromPackage(loaded, 'rate-limiter-flexible').length).toBeGreaterThan(0);
    expect(fromPackage(loaded, 'ioredis')).toEqual([]);
  });
});
