import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  visit,
  type EnumValueDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkSchema, FILES } from '../../src/tools/schema-diff.ts';

/**
 * The schema-change gate (`npm run schema:diff`, src/tools/schema-diff.ts): the current schema
 * against the released one, breaking changes failing unless accepted with a reason. Changes are
 * made on in-memory copies of the released SDL; the files in schema/ are only read.
 */

const read = (file: string) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
const released = read(FILES.released);

/** `sdl` without `typeName.fieldName` (its description goes with it). */
function withoutField(sdl: string, typeName: string, fieldName: string): string {
  return print(
    visit(parse(sdl), {
      ObjectTypeDefinition: (node) =>
        node.name.value === typeName ? { ...node, fields: node.fields?.filter((field) => field.name.value !== fieldName) } : undefined,
    }),
  );
}

/** `sdl` with one more value in the enum `enumName`. */
function withEnumValue(sdl: string, enumName: string, value: string): string {
  const added: EnumValueDefinitionNode = { kind: Kind.ENUM_VALUE_DEFINITION, name: { kind: Kind.NAME, value } };
  return print(
    visit(parse(sdl), {
      EnumTypeDefinition: (node) => (node.name.value === enumName ? { ...node, values: [...(node.values ?? []), added] } : undefined),
    }),
  );
}

/** Every deprecated member of `schema`, as graphql-inspector's paths name them. */
function deprecatedMembers(schema: GraphQLSchema): string[] {
  const members = Object.values(schema.getTypeMap()).flatMap((type): { path: string; deprecationReason?: string | null }[] => {
    if (isEnumType(type)) return type.getValues().map((value) => ({ ...value, path: `${type.name}.${value.name}` }));
    if (isInputObjectType(type)) return Object.values(type.getFields()).map((field) => ({ ...field, path: `${type.name}.${field.name}` }));
    if (!isObjectType(type) && !isInterfaceType(type)) return [];
    return Object.values(type.getFields()).flatMap((field) => [
      { ...field, path: `${type.name}.${field.name}` },
      ...field.args.map((arg) => ({ ...arg, path: `${type.name}.${field.name}.${arg.name}` })),
    ]);
  });
  return members.filter((member) => member.deprecationReason != null).map((member) => member.path);
}

const removal = { type: 'FIELD_REMOVED', path: 'Account.accountHolderName', accepted: '2026-12-01' };
const withoutHolderName = withoutField(released, 'Account', 'accountHolderName');

describe('npm run schema:diff', () => {
  it('passes the current schema against the released one, with the accepted changes in the repository', async () => {
    const verdict = await checkSchema({ released, current: read(FILES.current) }, JSON.parse(read(FILES.accepted)));
    expect(verdict.lines.at(-1)).toBe('schema:diff passed');
    expect(verdict.passed).toBe(true);
  });

  it('fails on a removed field, naming it and saying it was never deprecated', async () => {
    const verdict = await checkSchema({ released, current: withoutHolderName }, []);
    expect(verdict.passed).toBe(false);
    expect(verdict.lines).toContain(
      "BREAKING  FIELD_REMOVED Account.accountHolderName: Field 'accountHolderName' was removed from object type 'Account'",
    );
    expect(verdict.lines).toContainEqual(
      expect.stringMatching(
        /^ +Account\.accountHolderName was not @deprecated in schema\/released\.graphql: deprecate it in a release first/,
      ),
    );
    expect(verdict.lines.at(-1)).toBe('schema:diff failed: 1 breaking change not accepted, 0 stale entries');
  });

  it('does not complain of a missing deprecation when the removed field was deprecated in the release', async () => {
    const verdict = await checkSchema({ released, current: withoutField(released, 'Cardholder', 'countryCode') }, []);
    expect(verdict.lines).toContainEqual(expect.stringMatching(/^BREAKING +FIELD_REMOVED Cardholder\.countryCode: /));
    expect(verdict.lines.some((line) => line.includes('was not @deprecated'))).toBe(false);
    expect(verdict.passed).toBe(false);
  });

  it('passes the same removal once it is accepted with a reason, and prints the reason', async () => {
    const reason = 'Every app build since 3.2 reads Account.holder instead; the older builds are blocked by the store';
    const verdict = await checkSchema({ released, current: withoutHolderName }, [{ ...removal, reason }]);
    expect(verdict.passed).toBe(true);
    expect(verdict.lines).toContainEqual(expect.stringMatching(new RegExp(`^ +accepted on 2026-12-01: ${reason}$`)));
    expect(verdict.lines).toContain('schema/schema.graphql against schema/released.graphql: 1 breaking (1 accepted), 0 dangerous, 0 safe');
  });

  it('refuses an accepted entry without a reason, or with a blank one', async () => {
    await expect(checkSchema({ released, current: withoutHolderName }, [removal])).rejects.toThrow(
      /schema\/accepted-changes\.json will not do:[^]*reason/,
    );
    await expect(checkSchema({ released, current: withoutHolderName }, [{ ...removal, reason: '  ' }])).rejects.toThrow(/needs a reason/);
  });

  it('refuses an entry that names no change type of graphql-inspector, or no date', async () => {
    await expect(checkSchema({ released, current: released }, [{ ...removal, type: 'FIELD_GONE', reason: 'x' }])).rejects.toThrow(/type/);
    await expect(checkSchema({ released, current: released }, [{ ...removal, accepted: 'last week', reason: 'x' }])).rejects.toThrow(
      /accepted/,
    );
  });

  it('fails on a stale accepted entry, naming it', async () => {
    const verdict = await checkSchema({ released, current: released }, [{ ...removal, reason: 'removed, then put back' }]);
    expect(verdict.passed).toBe(false);
    expect(verdict.lines).toContainEqual(
      expect.stringMatching(
        /^STALE +FIELD_REMOVED Account\.accountHolderName: no breaking change matches this entry of schema\/accepted-changes\.json/,
      ),
    );
    expect(verdict.lines.at(-1)).toBe('schema:diff failed: 0 breaking changes not accepted, 1 stale entry');
  });

  it('prints a dangerous change (a new enum value) with why it is dangerous, and passes', async () => {
    const verdict = await checkSchema({ released, current: withEnumValue(released, 'AccountStatus', 'FROZEN') }, []);
    expect(verdict.passed).toBe(true);
    const line = verdict.lines.findIndex(
      (text) => text === "dangerous ENUM_VALUE_ADDED AccountStatus.FROZEN: Enum value 'FROZEN' was added to enum 'AccountStatus'",
    );
    expect(line).toBeGreaterThanOrEqual(0);
    expect(verdict.lines[line + 1]).toMatch(/^ +Adding an enum value may break existing clients/);
    expect(verdict.lines).toContain('schema/schema.graphql against schema/released.graphql: 0 breaking (0 accepted), 1 dangerous, 0 safe');
  });

  it('docs/frontend.md names every member deprecated today, for the apps that still read them', () => {
    const sentence = /Deprecated today: (.+?)\.(?:\s|$)/s.exec(read('docs/frontend.md'))?.[1];
    const named = [...(sentence ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    expect(named.sort()).toEqual(deprecatedMembers(buildSchema(read(FILES.current))).sort());
  });
});
