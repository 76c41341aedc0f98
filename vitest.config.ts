import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports" map: Node loads its CommonJS build for the packages it imports
    // natively, while Vite would pick the "module" build for our files. Two copies of graphql break
    // `instanceof`, so our files must get the same CommonJS build Node gives everyone else.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The leak scan runs after every file (test/leak-scan.ts).
    setupFiles: ['test/leak-scan.setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Asynchronous deliveries on a loaded 2-core machine can take longer than the default second.
    expect: { poll: { timeout: 10_000 } },
    // npm run test:coverage: what the suite runs of the gateway and the sandbox (examples and tools aside).
    coverage: { provider: 'v8', include: ['src/**/*.ts'], exclude: ['src/**/*.test.ts', 'src/tools/**'], reporter: ['text-summary', 'json-summary'], reportsDirectory: 'coverage' },
  },
});
