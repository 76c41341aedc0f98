import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of the gateway (docs/architecture.md): a file imports only from its own layer's
 * allowed neighbours or from layers below it, and no file imports its way into a cycle. The
 * sandbox is a package of its own (sandbox/, checked at the end); tests are left out. Layers, top first; a layer imports only layers listed after it, and inside a layer only
 * the parts named in SIDEWAYS.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'tools'],
  ['start-banner.ts', 'env-file.ts', 'port-taken.ts', 'sandbox-upstream.ts'],
  ['gateway.ts'],
  ['server.ts', 'routes'],
  ['ws.ts', 'health.ts'],
  ['ws-legacy.ts'],
  ['yoga.ts'],
  ['compression.ts', 'conditional-get.ts', 'incremental-delivery.ts', 'multipart-subscriptions.ts', 'schema'],
  ['builder.ts', 'errors.ts'],
  ['audit'],
  ['scalars.ts', 'observability'],
  ['context.ts'],
  ['auth', 'events'],
  ['security'],
  ['upstream'],
  ['logger.ts', 'redis-options.ts', 'metrics-registry.ts'],
  ['config.ts'],
  ['permissions.ts'],
];

/** Imports inside one layer that are allowed, as "from -> to". */
const SIDEWAYS = new Set(['start-banner.ts -> logger.ts', 'incremental-delivery.ts -> multipart-subscriptions.ts']);

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** `schema` for src/schema/cards.ts, `yoga.ts` for src/yoga.ts. */
const partOf = (path: string): string => relative(SRC, path).split('/')[0]!;
const rankOf = (part: string): number => LAYERS.findIndex((layer) => layer.includes(part));

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)].map((match) => resolve(dirname(path), match[1]!));
}

const graph = new Map(files(SRC).map((path) => [path, importsOf(path)]));

/** Every import cycle among the files of `edges` (type imports included), as paths under `base`. */
function cyclesIn(edges: Map<string, string[]>, base: string): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (path: string, trail: string[]): void => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'open') return void cycles.push([...trail.slice(trail.indexOf(path)), path].map((p) => relative(base, p)).join(' -> '));
    state.set(path, 'open');
    for (const next of edges.get(path) ?? []) if (edges.has(next)) visit(next, [...trail, path]);
    state.set(path, 'done');
  };
  for (const path of edges.keys()) visit(path, []);
  return cycles;
}

describe('the layers of src/', () => {
  it('places every part of src/ in a layer', () => {
    const parts = new Set([...graph.keys()].map(partOf));
    expect([...parts].filter((part) => rankOf(part) < 0)).toEqual([]);
  });

  it('has no import running up a layer or sideways without leave', () => {
    const wrong: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets) {
        const [a, b] = [partOf(from), partOf(to)];
        if (a === b) continue;
        const [ra, rb] = [rankOf(a), rankOf(b)];
        if (rb > ra || (rb === ra && SIDEWAYS.has(`${a} -> ${b}`))) continue;
        wrong.push(`${relative(SRC, from)} -> ${relative(SRC, to)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cyclesIn(graph, SRC)).toEqual([]);
  });
});

const SANDBOX = fileURLToPath(new URL('../sandbox/', import.meta.url));

describe('the sandbox package', () => {
  const sources = files(join(SANDBOX, 'src'));
  const manifest = JSON.parse(readFileSync(join(SANDBOX, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

  it('imports nothing of the gateway: no relative import leaves sandbox/src', () => {
    const leaving = sources.flatMap((path) => importsOf(path).filter((to) => !to.startsWith(join(SANDBOX, 'src'))).map((to) => `${relative(SANDBOX, path)} -> ${relative(SANDBOX, to)}`));
    expect(leaving).toEqual([]);
  });

  const CORE = join(SANDBOX, 'src');
  const DOMAINS = join(CORE, 'domains');
  /** `cards` for sandbox/src/domains/cards/create.ts; undefined for the core (and the entry and the domain list). */
  const domainOf = (path: string): string | undefined => {
    const parts = relative(DOMAINS, path).split('/');
    return parts[0] === '..' || parts.length < 2 ? undefined : parts[0];
  };
  const ENTRY = new Set([join(CORE, 'index.ts'), join(CORE, 'main.ts'), join(DOMAINS, 'index.ts')]);

  it('has a core that imports no domain: only the entry and the domain list name the domains', () => {
    const wrong = sources
      .filter((path) => domainOf(path) === undefined && !ENTRY.has(path))
      .flatMap((path) => importsOf(path).filter((to) => to.startsWith(DOMAINS)).map((to) => `${relative(CORE, path)} -> ${relative(CORE, to)}`));
    expect(wrong).toEqual([]);
  });

  it('has domains that import the core and their own files, never another domain (they share through the core)', () => {
    const wrong = sources.flatMap((path) => {
      const own = domainOf(path);
      if (own === undefined) return [];
      return importsOf(path)
        .filter((to) => domainOf(to) !== undefined && domainOf(to) !== own)
        .map((to) => `${relative(CORE, path)} -> ${relative(CORE, to)}`);
    });
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cyclesIn(new Map(sources.map((path) => [path, importsOf(path)])), CORE)).toEqual([]);
  });

  it('imports only Node and the packages its package.json names', () => {
    const packages = new Set(
      sources.flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/^(?:import|export)[^'"]*from '([^.'][^']*)'/gm)].map((match) => match[1]!.split('/')[0]!)),
    );
    expect([...packages].filter((name) => !name.startsWith('node:')).sort()).toEqual(Object.keys(manifest.dependencies).sort());
  });
});
