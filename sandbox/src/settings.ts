import { z } from 'zod';
import { PROGRAMS } from './program.ts';

/**
 * Settings from the environment, as zod schemas that carry their variable, rule and meaning
 * (`.meta()`): the sandbox's own here, and the toolkit the gateway's configuration (src/config.ts)
 * is written with, so both read the environment, report problems and document themselves the
 * same way, and the gateway's one configuration schema can hold the sandbox's group as it is.
 */

/** What each setting tells the docs besides its schema. */
export interface SettingMeta {
  /** The environment variable that sets it. */
  env: string;
  /** What it does, for the docs. */
  meaning: string;
  /** Its rule, in words (the schema enforces it). */
  rule: string;
  /** The default in words, where the schema's own default is not the whole story (e.g. "the sandbox's"). */
  defaultText?: string;
}

/** What each group of settings tells the docs. */
export interface GroupMeta {
  title: string;
  description: string;
}

type Rule = Pick<SettingMeta, 'rule'>;

// Empty strings in env files mean "not set", not "set to empty".
export const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

export function text() {
  return z.preprocess(unsetIfEmpty, z.string().optional()).meta({ rule: 'text' });
}

export function textOr(fallback: string) {
  return z.preprocess(unsetIfEmpty, z.string().default(fallback)).meta({ rule: 'text' });
}

export function httpUrl() {
  return z
    .preprocess(unsetIfEmpty, z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional())
    .transform((url) => url?.replace(/\/+$/, ''))
    .meta({ rule: 'http(s) URL' });
}

export function int(min: number, max: number, fallback: number) {
  return z
    .preprocess(
      (v) => (v === '' || v === undefined ? fallback : v),
      z.coerce
        .number({ error: 'must be a number' })
        .int({ error: 'must be an integer' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .meta({ rule: `integer, ${min} to ${max}` });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(unsetIfEmpty, z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional()).meta({ rule: values.join(', ') });
}

export function oneOfOr<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  const schema = z.enum(values, { error: `must be one of ${values.join(', ')}` });
  return z.preprocess(unsetIfEmpty, schema.default(fallback as z.output<typeof schema>)).meta({ rule: values.join(', ') });
}

/** `true`/`false` (also 1/0, yes/no, on/off); unset = a default that may depend on NODE_ENV. */
export function flag() {
  return z
    .preprocess(
      (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
      z
        .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
        .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
        .optional(),
    )
    .meta({ rule: 'true or false' });
}

/** A flag with a fixed default when unset. */
export function flagOr(fallback: boolean) {
  return flag().transform((v) => v ?? fallback).meta({ rule: 'true or false' });
}

/** Comma-separated entries, each held to `entry`. */
export function list<T extends z.ZodType>(entry: T, normalise: (item: string) => string, rule: string) {
  return z
    .preprocess((v) => (typeof v === 'string' ? v.split(',').map((item) => normalise(item.trim())).filter(Boolean) : []), z.array(entry))
    .meta({ rule });
}

/** A setting: its rule's schema, and the variable and meaning the docs and messages use. */
export function setting<S extends z.ZodType>(env: string, schema: S, meaning: string, defaultText?: string): S {
  const { rule } = schema.meta() as Rule;
  return schema.meta({ env, meaning, rule, ...(defaultText === undefined ? {} : { defaultText }) });
}

export function group<T extends z.ZodRawShape>(title: string, description: string, shape: T) {
  return z.object(shape).meta({ title, description });
}


/** `npm run sandbox` and the embedded sandbox of `npm start`. */
export const sandboxSettingsSchema = group('The sandbox', 'The embedded sandbox of `npm start`, and `npm run sandbox` on its own.', {
  port: setting('SANDBOX_PORT', int(0, 65535, 4010), 'port of the embedded sandbox (and of `npm run sandbox`)'),
  host: setting('SANDBOX_HOST', textOr('127.0.0.1'), 'interface `npm run sandbox` listens on (the embedded sandbox always uses loopback)'),
  latencyMs: setting('SANDBOX_LATENCY_MS', int(0, 60_000, 0), "time from each API call's arrival to its answer (the sandbox does the call's work inside it)"),
  webhookSigningSecret: setting(
    'SANDBOX_WEBHOOK_SIGNING_SECRET',
    text(),
    "secret `npm run sandbox` signs its webhook deliveries with (the embedded sandbox shares the gateway's)",
  ),
  program: setting(
    'SANDBOX_PROGRAM',
    z
      .preprocess((v) => (typeof v === 'string' && v !== '' ? v.toUpperCase() : undefined), z.enum(PROGRAMS, { error: `must be one of ${PROGRAMS.join(', ')}` }).default('CARDS'))
      .meta({ rule: PROGRAMS.join(', ') }),
    'card program the sandbox simulates (`npm run sandbox` only; the embedded one uses CARDS)',
  ),
});

export type SandboxSettings = z.output<typeof sandboxSettingsSchema>;

/** One setting of a schema: where it sits, its schema and what it tells the docs. */
export interface SettingEntry {
  path: string[];
  schema: z.ZodType;
  meta: SettingMeta;
}

/** The settings of `schema` in order, each with its path (`resilience.breaker.minCalls`). */
export function settingsIn(schema: z.ZodObject, prefix: string[] = []): SettingEntry[] {
  return Object.entries(schema.shape).flatMap(([key, child]) => {
    const path = [...prefix, key];
    if (child instanceof z.ZodObject) return settingsIn(child, path);
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
export function settingsReader<S extends z.ZodObject>(schema: S) {
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
      const parsed = schema.safeParse(input);
      return parsed.success ? { ok: true, settings: parsed.data } : { ok: false, problems: parsed.error.issues.map(problemOf) };
    },
  };
}

const sandboxSettings = settingsReader(sandboxSettingsSchema);

/** The sandbox's settings from the environment; a ConfigError lists every problem. */
export function loadSandboxSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const result = sandboxSettings.read(env);
  if (!result.ok) throw new ConfigError(result.problems);
  return result.settings;
}
