/** V8's full collector without --expose-gc, for the benchmark's servers (their live heap) and the tests. */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collector, reachable without starting the process with --expose-gc (a server started so
 * would differ from `npm start`). The benchmark's servers (live heap) and the tests use it.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
