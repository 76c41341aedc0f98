import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../src/schema/index.ts';

/** The README's operation examples are the front door: each must run against the schema as printed. */
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const operations = readme.slice(readme.indexOf('## Operations'), readme.indexOf('## Schema conventions'));
const examples = [...operations.matchAll(/^\| `([^`]+)`[^|]*\| `(.+)` \|$/gm)].map(([, name, example]) => ({ name: name!, example: example! }));
const schema = buildSchema();

describe('README operations', () => {
  it.each(examples)('$name: the example is a valid operation', ({ example }) => {
    expect(validate(schema, parse(example)).map((e) => e.message)).toEqual([]);
  });

  it('shows every root query and mutation field', () => {
    const shown = examples.map((e) => e.example).join('\n');
    const roots = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
    const missing = roots.filter((field) => !new RegExp(`\\b${field}\\b`).test(shown));
    expect(missing).toEqual([]);
  });
});
