/**
 * The one wait of the tests: until a condition holds, or fail naming what was awaited.
 *
 * Not vitest's `vi.waitFor`: test/helpers/redis.ts waits with it while starting Redis for the
 * benchmark too (bench/failover-runs.ts, plain Node), where vitest's utilities throw ("Vitest failed
 * to access its internal state"). An assertion that can be retried reads better as
 * `await expect.poll(...)` or `vi.waitFor(() => expect(...))`, which need no helper.
 */

export interface UntilOptions {
  /** How long to wait before failing; 15 s unless said. */
  timeoutMs?: number;
  /** How often to ask; 10 ms unless said (a probe that opens a connection asks less often). */
  intervalMs?: number;
}

/**
 * Resolves once `condition` holds, asked at once and then every `intervalMs`; rejects after
 * `timeoutMs` with an error naming `what` ("timed out after 15000 ms waiting for the first result"),
 * phrased as what is awaited, or a function giving it then (to say the state the wait ended in).
 * A condition that throws or rejects has not held yet; its last error is the timeout's cause.
 */
export async function until(
  what: string | (() => string),
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 15_000, intervalMs = 10 }: UntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const named = typeof what === 'function' ? what() : what;
      const cause =
        lastError === undefined ? '' : ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${named}${cause}`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
