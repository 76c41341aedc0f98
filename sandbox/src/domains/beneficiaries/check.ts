import { rulesFor, type SchemaRule } from './rules.ts';
import type { BeneficiaryFields } from './types.ts';

/**
 * Every rule the fields break, as `<dotted path>: <rule>`, under the rule set of each of
 * their transfer methods (a rule two sets share is reported once). Null, absent and empty
 * text all count as not given.
 */
export function ruleProblems(fields: BeneficiaryFields): string[] {
  const bank = fields.beneficiary.bank_details;
  const problems = new Set<string>();
  for (const transferMethod of new Set(fields.transfer_methods)) {
    const combination = {
      bankCountry: bank.bank_country_code ?? '',
      currency: bank.account_currency ?? '',
      entityType: fields.beneficiary.entity_type ?? '',
      transferMethod,
    };
    for (const rule of rulesFor(combination)) {
      for (const value of valuesAt(fields, rule.path)) {
        const problem = broken(rule, value);
        if (problem !== null) problems.add(`${rule.path}: ${problem}`);
      }
    }
  }
  return [...problems];
}

function valuesAt(fields: BeneficiaryFields, path: string): unknown[] {
  if (path === 'transfer_method') return fields.transfer_methods;
  let value: unknown = fields;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  return [value];
}

function broken(rule: SchemaRule, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return rule.required ? 'is required' : null;
  // The fields are text (types.ts); anything else would be tested as its JSON.
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (rule.rule !== undefined && !compiled(rule.rule.pattern).test(text)) return `must match ${rule.rule.pattern}`;
  return null;
}

// Patterns come from a bounded set (per country), so the cache stays small.
const patterns = new Map<string, RegExp>();
function compiled(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern);
    patterns.set(pattern, regex);
  }
  return regex;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
