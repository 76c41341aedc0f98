import { readFileSync } from 'node:fs';

/**
 * The report's prose lives in Markdown templates (bench/report/templates/), where it reads and wraps like
 * the rest of the docs; the code fills their {{placeholders}}. A placeholder without a value, or a
 * value no placeholder asks for, throws: the template and the code that fills it cannot drift apart
 * without the next report (and test/static/bench-results.test.ts) failing.
 */

export type TemplateValues = Record<string, string | number>;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** `template` with each {{name}} replaced by values[name]; `source` names the template in errors. */
export function fill(template: string, values: TemplateValues, source = 'the template'): string {
  const malformed = template.replace(PLACEHOLDER, '').match(/\{\{[^\n]{0,40}/);
  if (malformed) throw new Error(`${source}: "${malformed[0]}" is not a placeholder ({{name}}, the name in letters, digits and _)`);
  const used = new Set<string>();
  const filled = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${source}: the placeholder {{${name}}} has no value`);
    used.add(name);
    return String(value);
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`${source} has no placeholder for ${unused.map((name) => `{{${name}}}`).join(', ')}`);
  return filled;
}

/** A template of bench/templates/, read once, as a function of the values it needs. */
export function template(file: string): (values: TemplateValues) => string {
  const text = readFileSync(new URL(`templates/${file}`, import.meta.url), 'utf8');
  return (values) => fill(text, values, `bench/report/templates/${file}`);
}
