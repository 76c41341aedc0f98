/**
 * The environment as the rules across settings read it: raw, before any setting parses, so their
 * problems are reported together with each setting's own. Each group's file holds its rules; load.ts runs them.
 */

/** The variable of a setting, by its path (`auth.mode`): messages name variables only through the schema. */
export type VariableOf = (path: string) => string;

/** What a rule across settings reads: the variables, by the paths of their settings. */
export interface RawEnvironment {
  env: NodeJS.ProcessEnv;
  variable: VariableOf;
  /** Whether the setting at `path` is given: set, and not empty. */
  set: (path: string) => boolean;
  /** The comma-separated entries of the setting at `path`, trimmed, the empty ones left out. */
  entries: (path: string) => string[];
  /** `<variable> is required <because>`, for each setting of `paths` that is not given. */
  requiredWith: (paths: string[], because: string) => string[];
}

export function rawEnvironment(env: NodeJS.ProcessEnv, variable: VariableOf): RawEnvironment {
  const set = (path: string) => {
    const value = env[variable(path)];
    return value !== undefined && value !== '';
  };
  return {
    env,
    variable,
    set,
    entries: (path) =>
      (env[variable(path)] ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    requiredWith: (paths, because) => paths.filter((path) => !set(path)).map((path) => `${variable(path)} is required ${because}`),
  };
}

/** The entries whose key an earlier entry already had (an entry without one is malformed: reported as such). */
export function repeats(entries: string[], keyOf: (entry: string) => string | undefined): string[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = keyOf(entry);
    if (key === undefined) return false;
    const repeated = seen.has(key);
    seen.add(key);
    return repeated;
  });
}
