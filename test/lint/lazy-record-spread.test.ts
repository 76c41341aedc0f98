import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * eslint.config.js's gateway/no-lazy-record-spread, as `npm run lint` runs it, on a file of product
 * code that spreads lazy records: the type checker's program is this file's alone (and what it
 * imports) rather than the whole repository's, which takes ESLint seconds to build.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Not on disk: the program and ESLint read it from here. Under src/upstream/, and no test: the rule applies. */
const FIXTURE = `${root}src/upstream/lazy-record-spread.fixture.ts`;

const SOURCE = `import { z } from 'zod';
import { camelObject } from './camel-case.ts';
import { extended, readLazily } from './lazy-model.ts';

const limit = z.object({ amount: z.number(), interval: z.string() });
const model = z.array(camelObject({ card_id: z.string(), card_limit: limit }));
const [card] = readLazily(model, [], { fail: () => { throw new Error('broken'); } });
const record = card!;
const options = { retries: 1 };

export const spread = { ...record, currency: 'EUR' };
export const assigned = Object.assign({}, record, { currency: 'EUR' });
export const { cardId, ...rest } = record;
export const nested = { ...record.cardLimit };
export const orNull = { ...(Math.random() > 0.5 ? record : null) };
export const extendedSpread = { ...extended(record, { currency: 'EUR' }) };
export const readThrough = extended(record, { currency: 'EUR' });
export const fields = { id: record.cardId, amount: record.cardLimit.amount };
export const plain = { ...options, retries: 2 };
export const list = [...[record]];
export const whole = model.transform((cards) => cards.map((c) => ({ ...c, currency: 'EUR' })));
`;

/** A program of the fixture and what it imports, with the repository's compiler options. */
function fixtureProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json does not parse');
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) =>
    file === FIXTURE ? ts.createSourceFile(file, SOURCE, language) : getSourceFile.call(host, file, language, ...rest);
  host.fileExists = (file) => file === FIXTURE || fileExists.call(host, file);
  host.readFile = (file) => (file === FIXTURE ? SOURCE : readFile.call(host, file));
  return ts.createProgram({ rootNames: [FIXTURE], options: config.options, host });
}

describe('gateway/no-lazy-record-spread', () => {
  it('reports a lazy record spread, Object.assign’d or taken apart with ...rest, and leaves reads through and other objects alone', async () => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [fixtureProgram()] } } },
    });
    const [result] = await eslint.lintText(SOURCE, { filePath: FIXTURE });
    const line = (text: string) => SOURCE.split('\n').findIndex((l) => l.includes(text)) + 1;
    const reported = result!.messages.map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));
    const spreadOf = (text: string, how: string) => ({
      rule: 'gateway/no-lazy-record-spread',
      line: line(text),
      message: expect.stringMatching(
        new RegExp(`^A lazy record \\(.*\\) copied by ${how.replace(/[.*]/g, '\\$&')} parses every field at once`),
      ),
    });
    expect(reported).toEqual([
      spreadOf('export const spread', 'a spread'),
      spreadOf('export const assigned', 'Object.assign'),
      spreadOf('export const { cardId', 'a ...rest'),
      spreadOf('export const nested', 'a spread'),
      spreadOf('export const orNull', 'a spread'),
      spreadOf('export const extendedSpread', 'a spread'),
    ]);
  }, 60_000);
});
