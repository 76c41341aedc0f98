import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The node processes the tests start (npm start, the examples, the docs' snippets, child gateways)
// keep what V8 compiled of the gateway and its packages between starts (Node's compile cache, checked
// against each file's content): each start then compiles only what changed.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'banking-gateway-compile-cache');

/**
 * The lanes go by folder (docs/contributing.md, "Tests"). The fast lane (`npm run test:unit`) runs
 * what starts nothing: the unit tests beside the code, the settings package's, and test/static/.
 */
const FAST_LANE = ['src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/static/**/*.test.ts'];
/** The whole suite (`npm test`) adds the sandbox's own tests and every other folder of test/. */
const WHOLE_SUITE = [...FAST_LANE, 'sandbox/test/**/*.test.ts', 'test/**/*.test.ts'];

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
    include: mode === 'unit' ? FAST_LANE : WHOLE_SUITE,
    // Isolating each file made most of the suite's time importing the gateway again for every file;
    // with one module graph per worker, every file starts its own sandbox and gateway and closes
    // them, so nothing a file needs leaks into the next (process.env aside: a file restores its own).
    isolate: false,
    // The suite mostly waits (sockets, timers, polls, child processes), so more workers than cores
    // overlap the waits; each worker loads the gateway once more, and one more than this made the
    // suite CPU-bound and slower (docs/contributing.md, "Tests"). package.json's test scripts give
    // V8 a larger young generation: the workers' short-lived garbage costs fewer scavenges.
    maxWorkers: mode === 'unit' ? 3 : 5,
    // Threads start faster than processes.
    pool: 'threads',
    // The leak scan runs after every file (test/helpers/leak-scan.ts).
    setupFiles: ['test/helpers/leak-scan.setup.ts'],
    // The browser tests' Chromium, unpacked once before the files that launch it run side by side.
    globalSetup: mode === 'unit' ? [] : ['test/helpers/browser.global-setup.ts'],
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
