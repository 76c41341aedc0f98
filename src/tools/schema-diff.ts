import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ChangeType, CriticalityLevel, diff, type Change, type Rule } from '@graphql-inspector/core';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { z } from 'zod';

/**
 * `npm run schema:diff`: the schema the code prints (schema/schema.graphql) against the last
 * released one (schema/released.graphql), by graphql-inspector's diff. Apps in the field run old
 * builds for months, so a breaking change fails unless schema/accepted-changes.json lists it with a
 * reason. `npm run schema:release` makes the current schema the released one.
 */

export const FILES = { current: 'schema/schema.graphql', released: 'schema/released.graphql', accepted: 'schema/accepted-changes.json' };
const ROOT = new URL('../../', import.meta.url);
const pathOf = (file: string) => fileURLToPath(new URL(file, ROOT));

const changeTypes = Object.values(ChangeType) as [string, ...string[]];

/** One breaking change let through on purpose, named as graphql-inspector names it. */
const acceptedChangeSchema = z.strictObject({
  type: z.enum(changeTypes),
  /** Absent only for changes without a path (the schema's root types). */
  path: z.string().min(1).optional(),
  reason: z.string().trim().min(1, 'an accepted breaking change needs a reason: who it breaks and why that is acceptable'),
  accepted: z.iso.date(),
});
type AcceptedChange = z.infer<typeof acceptedChangeSchema>;

/** The accepted changes file's entries; throws naming every entry that will not do. */
function parseAcceptedChanges(json: unknown): AcceptedChange[] {
  const parsed = z.array(acceptedChangeSchema).safeParse(json);
  if (!parsed.success) throw new Error(`${FILES.accepted} will not do:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const LABELS: Record<CriticalityLevel, string> = {
  [CriticalityLevel.Breaking]: 'BREAKING',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};
const ORDER = [CriticalityLevel.Breaking, CriticalityLevel.Dangerous, CriticalityLevel.NonBreaking];

const REMOVALS: ReadonlySet<string> = new Set([
  ChangeType.FieldRemoved,
  ChangeType.InputFieldRemoved,
  ChangeType.EnumValueRemoved,
  ChangeType.FieldArgumentRemoved,
]);

/** Whether what `path` names (Type.field, Input.field, Enum.VALUE, Type.field.argument) is @deprecated in `schema`. */
function deprecatedIn(schema: GraphQLSchema, path: string): boolean {
  const [typeName = '', member = '', argument] = path.split('.');
  const type = schema.getType(typeName);
  if (isEnumType(type)) return type.getValue(member)?.deprecationReason != null;
  if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) return false;
  const field = type.getFields()[member];
  if (argument === undefined) return field?.deprecationReason != null;
  return field !== undefined && 'args' in field && field.args.find((arg) => arg.name === argument)?.deprecationReason != null;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const names = (change: Change, entry: AcceptedChange) => entry.type === change.type && entry.path === change.path;
const entryName = (entry: { type: string; path?: string }) => `${entry.type} ${entry.path ?? '(no path)'}`;

/** Notes sit under their change's text, past its label. */
const UNDER = ' '.repeat(10);

/** A change's line, and under it what the reader must know: why it may hurt, or why it passes or fails. */
function linesOf(change: Change, accepted: AcceptedChange | undefined, released: GraphQLSchema): string[] {
  const lines = [`${LABELS[change.criticality.level].padEnd(UNDER.length)}${entryName(change)}: ${change.message}`];
  if (change.criticality.level === CriticalityLevel.Dangerous && change.criticality.reason)
    lines.push(`${UNDER}${change.criticality.reason}`);
  if (change.criticality.level !== CriticalityLevel.Breaking) return lines;
  if (REMOVALS.has(change.type) && change.path && !deprecatedIn(released, change.path)) {
    lines.push(
      `${UNDER}${change.path} was not @deprecated in ${FILES.released}: deprecate it in a release first and keep it for the deprecation window (docs/frontend.md, "Schema changes and deprecations")`,
    );
  }
  lines.push(
    accepted
      ? `${UNDER}accepted on ${accepted.accepted}: ${accepted.reason}`
      : `${UNDER}not accepted: breaks apps in the field unless ${FILES.accepted} lists it with a reason`,
  );
  return lines;
}

interface Verdict {
  passed: boolean;
  lines: string[];
}

/**
 * The verdict on `changes` from `released`: every change printed, breaking first; it fails on a
 * breaking change no entry of `accepted` names. It fails on a stale entry too (one that names no
 * breaking change): left in, it would let through, unasked, a later breaking change that happens to
 * get the same type and path, with a reason written for another. A stale entry appears only when
 * a change is reverted or a release makes the file's changes part of the baseline, both in the
 * commit that should remove it, so failing costs that commit one line.
 */
function verdictOf(changes: Change[], accepted: AcceptedChange[], released: GraphQLSchema): Verdict {
  const byLevel = (level: CriticalityLevel) => changes.filter((change) => change.criticality.level === level);
  const breaking = byLevel(CriticalityLevel.Breaking);
  const acceptanceOf = (change: Change) => (breaking.includes(change) ? accepted.find((entry) => names(change, entry)) : undefined);
  const refused = breaking.filter((change) => !acceptanceOf(change));
  const stale = accepted.filter((entry) => !breaking.some((change) => names(change, entry)));
  const passed = refused.length === 0 && stale.length === 0;
  const lines = [
    ...ORDER.flatMap(byLevel).flatMap((change) => linesOf(change, acceptanceOf(change), released)),
    ...stale.map(
      (entry) =>
        `${'STALE'.padEnd(UNDER.length)}${entryName(entry)}: no breaking change matches this entry of ${FILES.accepted}; remove it`,
    ),
    `${FILES.current} against ${FILES.released}: ${breaking.length} breaking (${breaking.length - refused.length} accepted), ${byLevel(CriticalityLevel.Dangerous).length} dangerous, ${byLevel(CriticalityLevel.NonBreaking).length} safe`,
    passed
      ? 'schema:diff passed'
      : `schema:diff failed: ${plural(refused.length, 'breaking change', 'breaking changes')} not accepted, ${plural(stale.length, 'stale entry', 'stale entries')}`,
  ];
  return { passed, lines };
}

/** The cost directives (schema/cost-directives.ts): annotations a router's demand control reads, no change to what a client may send or gets. */
const COST_ANNOTATIONS = new Set(['cost', 'listSize']);

/** graphql-inspector calls every directive usage added dangerous; the cost directives' are safe. */
const costAnnotationsAreSafe: Rule = ({ changes }) =>
  changes.map((change) => {
    const added = (change.meta as { addedDirectiveName?: string }).addedDirectiveName;
    if (!change.type.startsWith('DIRECTIVE_USAGE_') || !added || !COST_ANNOTATIONS.has(added)) return change;
    return { ...change, criticality: { level: CriticalityLevel.NonBreaking, reason: 'a cost annotation for routers' } };
  });

/** The verdict on the current schema's SDL against the released one's, with the accepted changes file's JSON. */
export async function checkSchema(sdl: { released: string; current: string }, acceptedJson: unknown): Promise<Verdict> {
  const accepted = parseAcceptedChanges(acceptedJson);
  const released = buildSchema(sdl.released);
  return verdictOf(await diff(released, buildSchema(sdl.current), [costAnnotationsAreSafe]), accepted, released);
}

/** `--release`: the current schema becomes the baseline; the changes accepted against the old one are part of it now. */
function release(): number {
  copyFileSync(pathOf(FILES.current), pathOf(FILES.released));
  writeFileSync(pathOf(FILES.accepted), '[]\n');
  process.stdout.write(`${FILES.released} is now ${FILES.current}; ${FILES.accepted} emptied (git history keeps what it held)\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--release')) return release();
  const read = (file: string) => readFileSync(pathOf(file), 'utf8');
  try {
    const verdict = await checkSchema({ released: read(FILES.released), current: read(FILES.current) }, JSON.parse(read(FILES.accepted)));
    process.stdout.write(`${verdict.lines.join('\n')}\n`);
    return verdict.passed ? 0 : 1;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
