import type { UpstreamRuleIssue } from './mutation-errors.ts';

/**
 * Checking a mutation's input against a rule set the bank publishes (such as the beneficiary schema,
 * Document 1, section 2.8) before anything is written. A rule names its field by a dotted path into
 * the upstream body (`beneficiary.address.postcode`). The GraphQL input mirrors that body in
 * camelCase (`input.beneficiary.address.postcode`), so every rule path maps to one input path, and
 * each broken rule is reported with both. Pure functions: no GraphQL, no I/O.
 */

export interface FieldRule {
  /** The rule's own name, e.g. `postcode`. */
  key: string;
  /** Dotted path into the upstream body, e.g. `beneficiary.address.postcode`. */
  path: string;
  required: boolean;
  /** Source of a regular expression the value must match; null when the field has no rule. */
  pattern: string | null;
}

export interface RuleCheckOptions {
  /** Where the checked value sits among the field's arguments, e.g. `['input']`. */
  at?: readonly PropertyKey[];
  /** Rule paths that name a body member differently, e.g. `{ transfer_method: 'transfer_methods' }`. */
  aliases?: Readonly<Record<string, string>>;
}

/** `bank_details` → `bankDetails`, `account_routing_type1` → `accountRoutingType1`. */
export function camelCase(segment: string): string {
  return segment.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}

/** The input path of a rule's field: `beneficiary.bank_details.swift_code` → `['beneficiary', 'bankDetails', 'swiftCode']`. */
export function inputPathOf(rulePath: string, aliases: Readonly<Record<string, string>> = {}): string[] {
  return (aliases[rulePath] ?? rulePath).split('.').map(camelCase);
}

interface Located {
  path: PropertyKey[];
  value: unknown;
}

/**
 * Every value at `segments` under `value`. An array on the way applies the rest of the path to each
 * item (its index joins the path); an empty array counts as one absent value.
 */
function valuesAt(value: unknown, segments: readonly string[], path: PropertyKey[]): Located[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [{ path, value: undefined }];
    return value.flatMap((item, index) => valuesAt(item, segments, [...path, index]));
  }
  const [head, ...rest] = segments;
  if (head === undefined) return [{ path, value }];
  const child = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[head] : undefined;
  return valuesAt(child, rest, [...path, head]);
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** What `value` breaks of `rule`, or null when it follows it. Absent optional values follow every rule. */
export function brokenRule(rule: FieldRule, value: unknown): string | null {
  if (isAbsent(value)) return rule.required ? `${rule.key} is required` : null;
  if (rule.pattern === null) return null;
  if (typeof value === 'string' && new RegExp(rule.pattern).test(value)) return null;
  return `${rule.key} must match ${rule.pattern}`;
}

/**
 * Every rule `value` breaks, once each (rule sets of several combinations repeat rules), in rule
 * order. `value` is the camelCase twin of the upstream body.
 */
export function checkRules(rules: readonly FieldRule[], value: unknown, options: RuleCheckOptions = {}): UpstreamRuleIssue[] {
  const issues = new Map<string, UpstreamRuleIssue>();
  for (const rule of rules) {
    for (const found of valuesAt(value, inputPathOf(rule.path, options.aliases), [])) {
      const message = brokenRule(rule, found.value);
      if (message === null) continue;
      const path = [...(options.at ?? []), ...found.path];
      const id = `${path.map(String).join('.')}\n${message}`;
      if (!issues.has(id)) issues.set(id, { path, message, upstreamPath: rule.path });
    }
  }
  return [...issues.values()];
}
