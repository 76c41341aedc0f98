/**
 * The environment of a process a test starts with none of its own settings: PATH, and Node's compile
 * cache where the suite keeps one (vitest.config.ts), then `env`.
 */
export function bareEnv(env: Record<string, string | undefined> = {}): Record<string, string> {
  const cache = process.env.NODE_COMPILE_CACHE;
  const defined = Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { PATH: process.env.PATH ?? '', ...(cache ? { NODE_COMPILE_CACHE: cache } : {}), ...Object.fromEntries(defined) };
}
