import { z } from 'zod';
import type { SettingMeta } from './rules.ts';

/**
 * Reading settings from the environment into a schema of groups, with every problem named by its
 * variable, so an operator fixes a deployment in one round trip rather than one variable per restart.
 */

/** A schema of settings: an object of them, or a view read from one (`groupAs`, a transform of the whole). */
export type SettingsSchema = z.ZodObject | z.ZodPipe<z.ZodObject, z.ZodType>;

/** One setting of a schema: where it sits, its schema and what it tells the docs. */
export interface SettingEntry {
  path: string[];
  schema: z.ZodType;
  meta: SettingMeta;
}

/** The object of settings a schema reads: the schema itself, or the object a view is read from. */
function settingsObjectOf(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe && schema.in instanceof z.ZodObject) return schema.in;
  return undefined;
}

/** The settings of `schema` in order, each with its path (`resilience.breaker.minCalls`). */
export function settingsIn(schema: SettingsSchema, prefix: string[] = []): SettingEntry[] {
  return Object.entries(settingsObjectOf(schema)!.shape).flatMap(([key, child]) => {
    const path = [...prefix, key];
    const group = settingsObjectOf(child as z.ZodType);
    if (group) return settingsIn(group, path);
    const meta = (child as z.ZodType).meta() as SettingMeta | undefined;
    if (!meta?.env) throw new Error(`setting ${path.join('.')} names no variable`);
    return [{ path, schema: child as z.ZodType, meta }];
  });
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads settings from the environment into `schema`, and names each problem by its variable. */
export function settingsReader<S extends SettingsSchema>(schema: S) {
  const entries = settingsIn(schema);
  const byPath = new Map(entries.map((entry) => [entry.path.join('.'), entry]));
  /** `PORT must be …`, `GATEWAY_API_KEY_HASHES.2 entries must be …`: the variable, then where in it. */
  const problemOf = (issue: z.core.$ZodIssue): string => {
    const parts = issue.path.map(String);
    for (let length = parts.length; length > 0; length--) {
      const entry = byPath.get(parts.slice(0, length).join('.'));
      if (entry) return [[entry.meta.env, ...parts.slice(length)].join('.'), issue.message].join(' ');
    }
    return `${parts.join('.')} ${issue.message}`;
  };
  return {
    entries,
    /** The variable of a setting, by its path: messages name variables only through the schema. */
    variable(path: string): string {
      const entry = byPath.get(path);
      if (!entry) throw new Error(`no setting at ${path}`);
      return entry.meta.env;
    },
    /** The parsed settings, or every problem found: the variable of each and what is wrong. */
    read(env: NodeJS.ProcessEnv): { ok: true; settings: z.output<S> } | { ok: false; problems: string[] } {
      const input: Record<string, unknown> = {};
      for (const { path, meta } of entries) {
        let node = input;
        for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
        node[path.at(-1)!] = env[meta.env];
      }
      // A union of schemas parses to `unknown`; each member gives the output of `S`.
      const parsed = (schema as z.ZodType<z.output<S>>).safeParse(input);
      return parsed.success ? { ok: true, settings: parsed.data } : { ok: false, problems: parsed.error.issues.map(problemOf) };
    },
  };
}
