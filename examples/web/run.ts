import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run example:web`: the gateway with its embedded sandbox (as `npm start`: GraphiQL on
 * http://localhost:4000/graphql, the sandbox on 4010) and this app's Vite dev server on
 * http://localhost:5173, the origin the gateway allows by default with the sandbox. Ctrl-C or
 * SIGTERM stops both; if either stops, so does the other.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const app = fileURLToPath(new URL('./', import.meta.url));

// npm hoists the workspace's packages to the root unless versions clash.
const vite = [join(app, 'node_modules/vite/bin/vite.js'), join(root, 'node_modules/vite/bin/vite.js')].find((path) => existsSync(path));
if (vite === undefined) throw new Error('vite is not installed: run npm ci at the repository root');

const children: ChildProcess[] = [
  spawn(process.execPath, ['src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, [vite, '--port', '5173', '--strictPort'], { cwd: app, stdio: 'inherit' }),
];

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 15_000).unref();
  // Waits on exits alone: nothing here rejects.
  void Promise.all(
    children.map((child) => (child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)))),
  ).then(() => process.exit(code));
}

for (const child of children) child.once('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
