import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers of the gateway (docs/architecture.md): a file imports from its own folder or from
 * layers below it, never from another part of its layer, and no file anywhere in the repository
 * imports its way into a cycle. The sandbox and the settings toolkit are packages of their own
 * (sandbox/ and packages/settings/, checked at the end), and the gateway reaches its test double
 * through two files only; tests are left out of the layers. Layers, top first; an entry is a folder
 * or root file of src/, or a single file placed apart from its folder. No two files of one layer
 * share a name.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['main.ts', 'tools'],
  ['start'],
  ['gateway.ts'],
  ['routes'],
  ['transport'],
  ['schema'],
  ['builder.ts'],
  ['audit', 'live'],
  ['observability'],
  ['context.ts'],
  ['authentication', 'events'],
  ['authorization'],
  ['limits'],
  ['upstream'],
  ['platform'],
  ['settings'],
  // The permission table decides the roles a setting may name, so it sits under the settings.
  ['authorization/permissions.ts'],
];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Folders no import graph includes: installed packages and what a build or a run wrote. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

function files(dir: string, { tests = false } = {}): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) || name.startsWith('.') ? [] : files(path, { tests });
    return /\.tsx?$/.test(name) && (tests || !name.endsWith('.test.ts')) ? [path] : [];
  });
}

/** The entries of LAYERS that name one file rather than a folder. */
const FILE_PARTS = new Set(LAYERS.flat().filter((part) => part.includes('/')));

/** `schema` for src/schema/cards.ts, `transport` for src/transport/yoga.ts, a file named in LAYERS for itself. */
const partOf = (path: string): string => {
  const file = relative(SRC, path);
  return FILE_PARTS.has(file) ? file : file.split('/')[0]!;
};
const rankOf = (part: string): number => LAYERS.findIndex((layer) => layer.includes(part));

function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:(?:import|export)[^'"]*from |import )'(\.[^']+)'/gm)].map((match) => resolve(dirname(path), match[1]!));
}

/** The packages a file names, static, dynamic and type imports alike: `zod`, `@banking-gateway/sandbox/time.ts`. */
function packageImportsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/(?:^(?:import|export)[^'"]*from |^import |\bimport\()\s*'([^.'][^']*)'/gm)].map((match) => match[1]!);
}

/** `@banking-gateway/sandbox` for `@banking-gateway/sandbox/time.ts`, `zod` for `zod/v4`. */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The packages `sources` import, Node's own left out. */
const packagesImportedBy = (sources: string[]): string[] =>
  [...new Set(sources.flatMap((path) => packageImportsOf(path).map(packageOf)))].filter((name) => !name.startsWith('node:')).sort();

const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
    exports: Record<string, string>;
  };

const graph = new Map(files(SRC).map((path) => [path, importsOf(path)]));

/** Every import cycle among the files of `edges` (type imports included), as paths under `base`. */
function cyclesIn(edges: Map<string, string[]>, base: string): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (path: string, trail: string[]): void => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'open')
      return void cycles.push([...trail.slice(trail.indexOf(path)), path].map((p) => relative(base, p)).join(' -> '));
    state.set(path, 'open');
    for (const next of edges.get(path) ?? []) if (edges.has(next)) visit(next, [...trail, path]);
    state.set(path, 'done');
  };
  for (const path of edges.keys()) visit(path, []);
  return cycles;
}

/**
 * The files of each layer that share a base name, as lists under src/: one name, one module, so an
 * import or a mention in the docs cannot be read as the other file of its layer.
 */
function sameNamesInLayers(paths: string[]): string[] {
  const byLayerAndName = Map.groupBy(paths, (path) => `${rankOf(partOf(path))} ${basename(path)}`);
  return [...byLayerAndName.values()]
    .filter((group) => group.length > 1)
    .map((group) =>
      group
        .map((path) => relative(SRC, path))
        .sort()
        .join(', '),
    )
    .sort();
}

describe('the layers of src/', () => {
  it('places every part of src/ in a layer', () => {
    const parts = new Set([...graph.keys()].map(partOf));
    expect([...parts].filter((part) => rankOf(part) < 0)).toEqual([]);
  });

  it('has no import running up a layer or sideways', () => {
    const wrong: string[] = [];
    for (const [from, targets] of graph) {
      for (const to of targets) {
        const [a, b] = [partOf(from), partOf(to)];
        if (a === b) continue;
        const [ra, rb] = [rankOf(a), rankOf(b)];
        if (rb > ra) continue;
        wrong.push(`${relative(SRC, from)} -> ${relative(SRC, to)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cyclesIn(graph, SRC)).toEqual([]);
  });

  it('has no two files of one name in a layer, so a name says which module it means', () => {
    expect(sameNamesInLayers([...graph.keys()])).toEqual([]);
  });

  it('would report two files of one name in a layer, in folders of one part or of two', () => {
    const paths = [
      'upstream/retry.ts',
      'upstream/stages/retry.ts',
      'authentication/index.ts',
      'events/index.ts',
      'routes/metrics.ts',
      'limits/metrics.ts',
    ];
    expect(sameNamesInLayers(paths.map((path) => join(SRC, path)))).toEqual([
      'authentication/index.ts, events/index.ts',
      'upstream/retry.ts, upstream/stages/retry.ts',
    ]);
  });
});

const SANDBOX = fileURLToPath(new URL('../../sandbox/', import.meta.url));

describe('the sandbox package', () => {
  const sources = files(join(SANDBOX, 'src'));
  const manifest = manifestOf(SANDBOX);

  it('imports nothing of the gateway: no relative import leaves sandbox/src', () => {
    const leaving = sources.flatMap((path) =>
      importsOf(path)
        .filter((to) => !to.startsWith(join(SANDBOX, 'src')))
        .map((to) => `${relative(SANDBOX, path)} -> ${relative(SANDBOX, to)}`),
    );
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
      .flatMap((path) =>
        importsOf(path)
          .filter((to) => to.startsWith(DOMAINS))
          .map((to) => `${relative(CORE, path)} -> ${relative(CORE, to)}`),
      );
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
    expect(packagesImportedBy(sources)).toEqual(Object.keys(manifest.dependencies).sort());
  });

  it('exports only the entry points used outside it, so nothing else of it is imported by accident', () => {
    const ROOT = fileURLToPath(new URL('../../', import.meta.url));
    const users = ['src', 'test', 'bench', 'examples'].flatMap((dir) => files(join(ROOT, dir), { tests: true }));
    const used = new Set(
      users.flatMap((path) =>
        packageImportsOf(path)
          .filter((specifier) => packageOf(specifier) === manifest.name)
          .map((specifier) => `.${specifier.slice(manifest.name.length)}`),
      ),
    );
    expect(Object.keys(manifest.exports).sort()).toEqual([...used].sort());
  });
});

describe('the packages src/ imports', () => {
  /** The embedded start and the adapter that points the gateway at a sandbox: its only doors to its test double. */
  const SANDBOX_DOORS = ['main.ts', 'start/sandbox-upstream.ts'];

  it('imports the sandbox package (or any of its entry points) only in main.ts and start/sandbox-upstream.ts', () => {
    const wrong = files(SRC, { tests: true })
      .filter((path) => !SANDBOX_DOORS.includes(relative(SRC, path)))
      .flatMap((path) =>
        packageImportsOf(path)
          .filter((specifier) => packageOf(specifier) === '@banking-gateway/sandbox')
          .map((specifier) => `${relative(SRC, path)} -> ${specifier}`),
      );
    expect(wrong).toEqual([]);
  });
});

const SETTINGS = fileURLToPath(new URL('../../packages/settings/', import.meta.url));

describe('the settings package', () => {
  const sources = files(join(SETTINGS, 'src'));
  const manifest = manifestOf(SETTINGS);
  const ROOT = fileURLToPath(new URL('../../', import.meta.url));
  /** This repository's packages besides the settings package: the gateway, the sandbox and the example app. */
  const siblings = (manifestOf(ROOT) as unknown as { workspaces: string[] }).workspaces
    .map((dir) => manifestOf(join(ROOT, dir)).name)
    .concat(manifestOf(ROOT).name)
    .filter((name) => name !== manifest.name);

  it('imports nothing of the gateway or the sandbox: no relative import leaves it, and no import names another package of this repository', () => {
    const all = files(SETTINGS, { tests: true });
    const leaving = all.flatMap((path) =>
      importsOf(path)
        .filter((to) => !to.startsWith(SETTINGS))
        .map((to) => `${relative(SETTINGS, path)} -> ${relative(SETTINGS, to)}`),
    );
    const named = all.flatMap((path) =>
      packageImportsOf(path)
        .filter((specifier) => siblings.includes(packageOf(specifier)))
        .map((specifier) => `${relative(SETTINGS, path)} -> ${specifier}`),
    );
    expect([...leaving, ...named]).toEqual([]);
    expect(siblings).toEqual(expect.arrayContaining(['@banking-gateway/sandbox', 'banking-graphql-gateway']));
  });

  it('imports only Node and the packages its package.json names', () => {
    expect(packagesImportedBy(sources)).toEqual(Object.keys(manifest.dependencies).sort());
  });

  it('has no import cycle between files', () => {
    expect(cyclesIn(new Map(sources.map((path) => [path, importsOf(path)])), SETTINGS)).toEqual([]);
  });
});

describe('the whole repository', () => {
  const ROOT = fileURLToPath(new URL('../../', import.meta.url));
  const sources = ['src', 'test', 'bench', 'sandbox', 'packages', 'examples'].flatMap((dir) => files(join(ROOT, dir), { tests: true }));

  it('has no import cycle between files: the gateway, its tests, the benchmark, the sandbox, the packages and the examples', () => {
    expect(sources.length).toBeGreaterThan(500);
    expect(cyclesIn(new Map(sources.map((path) => [path, importsOf(path)])), ROOT)).toEqual([]);
  });
});
