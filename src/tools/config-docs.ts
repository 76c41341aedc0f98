import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configSchema, SETTINGS, type GroupMeta, type SettingEntry } from '../settings/index.ts';
import { withGenerated, writeOrCheck } from './generated-part.ts';

/**
 * `npm run config:docs`: docs/configuration.md's tables of variables and .env.example, written
 * from the configuration schema (src/settings/index.ts); `-- --check` fails instead when they drift.
 */

const ROOT = new URL('../../', import.meta.url);
export const DOC_PATH = fileURLToPath(new URL('docs/configuration.md', ROOT));
export const ENV_EXAMPLE_PATH = fileURLToPath(new URL('.env.example', ROOT));
const MARKERS = {
  begin: '<!-- variables: generated from src/settings/index.ts by `npm run config:docs`; edit there -->',
  end: '<!-- variables: end -->',
};

/**
 * A setting's default in words: the docs' own text where the schema's default is not the whole
 * story. A default the schema reads into a shape of its own (an object) has no words of its own:
 * such a setting must say it in `defaultText`, or the docs would print `[object Object]`.
 */
export function defaultOf(entry: SettingEntry): string {
  if (entry.meta.defaultText !== undefined) return entry.meta.defaultText;
  const value: unknown = entry.schema.parse(undefined);
  if (value === undefined) return 'unset';
  if (Array.isArray(value) && value.every(isPlain)) return value.length === 0 ? 'none' : value.join(', ');
  if (isPlain(value)) return `\`${String(value)}\``;
  throw new Error(
    `${entry.meta.env}: its default is read into a ${Array.isArray(value) ? 'list of shapes' : 'shape'}, not text: give the setting its default in words (setting's defaultText)`,
  );
}

const isPlain = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

const cell = (text: string) => text.replaceAll('|', '\\|');

function groups(): { meta: GroupMeta; entries: SettingEntry[] }[] {
  return Object.entries(configSchema.in.shape).map(([key, schema]) => ({
    meta: (schema as z.ZodType).meta() as unknown as GroupMeta,
    entries: SETTINGS.filter((entry) => entry.path[0] === key),
  }));
}

/** The tables of docs/configuration.md: one per group of the schema. */
export function variableTables(): string {
  return groups()
    .map(({ meta, entries }) =>
      [
        `### ${meta.title}`,
        '',
        meta.description,
        '',
        '| variable | default | rule | meaning |',
        '|---|---|---|---|',
        ...entries.map(
          (entry) => `| \`${entry.meta.env}\` | ${cell(defaultOf(entry))} | ${cell(entry.meta.rule)} | ${cell(entry.meta.meaning)} |`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/** docs/configuration.md with its generated part replaced by `tables`. */
export function withTables(doc: string, tables: string): string {
  return withGenerated(doc, MARKERS, tables, DOC_PATH);
}

const plain = (text: string) => text.replaceAll('`', '');

/** .env.example: every variable, commented out, with what it does and its default. */
export function envExample(): string {
  const header = [
    '# Every variable the gateway (npm start) and the standalone sandbox (npm run sandbox) read, with its',
    '# default; docs/configuration.md says more. Copy to .env and uncomment what you change:',
    '# npm start and npm run sandbox read .env when it exists, and compose.yaml passes it to the gateways.',
    '# Never commit a .env holding real secrets (.gitignore and .dockerignore keep it out).',
    '# Generated from src/settings/index.ts by `npm run config:docs`; edit there.',
  ];
  const sections = groups().map(({ meta, entries }) =>
    [
      `# --- ${meta.title} ---`,
      ...entries.flatMap((entry) => [
        '',
        `# ${plain(entry.meta.meaning)} (default: ${plain(defaultOf(entry))}; ${entry.meta.rule})`,
        `# ${entry.meta.env}=`,
      ]),
    ].join('\n'),
  );
  return `${[header.join('\n'), ...sections].join('\n\n')}\n`;
}

function main(argv: string[]): number {
  const wanted = [
    { path: DOC_PATH, text: withTables(readFileSync(DOC_PATH, 'utf8'), variableTables()) },
    { path: ENV_EXAMPLE_PATH, text: envExample() },
  ];
  return writeOrCheck(wanted, argv, 'npm run config:docs', 'configuration docs');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
