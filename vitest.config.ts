import { defineConfig } from 'vitest/config';

/**
 * The fast lane (`npm run test:unit`): unit tests under src/ and the tests of test/ that start no
 * server, sandbox or process: the schema and its change gate, limits, layers, contract walk, docs
 * and deployment files.
 */
const UNIT = [
  'src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'sandbox/test/domains.test.ts',
  'test/architecture.test.ts',
  'test/bench-report.test.ts',
  'test/bench-results.test.ts',
  'test/bench-template.test.ts',
  'test/contract-fields.test.ts',
  'test/deploy.test.ts',
  'test/kubernetes.test.ts',
  'test/docs-map.test.ts',
  'test/docs-figures.test.ts',
  'test/errors-doc.test.ts',
  'test/leak-scan.test.ts',
  'test/limits.test.ts',
  'test/schema.test.ts',
  'test/schema-diff.test.ts',
];

/** `vitest run --mode unit` runs the fast lane alone. */
export default defineConfig(({ mode }) => ({
  resolve: {
    // graphql 16 has no "exports" map: Node loads its CommonJS build for the packages it imports
    // natively, while Vite would pick the "module" build for our files. Two copies of graphql break
    // `instanceof`, so our files must get the same CommonJS build Node gives everyone else.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    // One pool for the whole suite: a project per lane would load the gateway once more per worker.
    include:
      mode === 'unit' ? UNIT : ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'sandbox/test/**/*.test.ts'],
    // Where the time went (2 cores, 105 files): 194 s with each file isolated, most of it importing
    // the gateway again for every file; 74 s with one module graph per worker. Every file starts
    // its own sandbox and gateway and closes them, so nothing a file needs leaks into the next.
    isolate: false,
    // The suite mostly waits (sockets, timers, polls), so more workers than cores overlap the waits;
    // each worker loads the gateway once more. 2 workers: 48 s, 3: 43 s, 4: 54 s (CPU-bound).
    maxWorkers: 3,
    // Threads start faster than processes (48 s against 54 s with 4 workers).
    pool: 'threads',
    // The leak scan runs after every file (test/leak-scan.ts).
    setupFiles: ['test/leak-scan.setup.ts'],
    // The browser tests' Chromium, unpacked once before the files that launch it run side by side.
    globalSetup: mode === 'unit' ? [] : ['test/browser.global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Asynchronous deliveries on a loaded 2-core machine can take longer than the default second.
    expect: { poll: { timeout: 10_000 } },
    // npm run test:coverage: what the suite runs of the gateway (src/) and the workspace packages (packages/*/src/, sandbox/src/), examples and tools aside.
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'packages/*/src/**/*.ts', 'sandbox/src/**/*.ts'],
      exclude: ['**/*.test.ts', 'src/tools/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
    },
  },
}));
