import { z } from 'zod';
import { badRequest } from './http.ts';

/**
 * Turns zod issues into messages that name the field and the rule, e.g.
 * `required_features[0].transfer_method must be one of LOCAL, SWIFT`.
 *
 * Convention for schema-level messages: a lowercase message is a rule and gets the field
 * name put in front of it; a message starting with a capital letter is a complete sentence
 * (such as the documented `Invalid account type: must be virtual_account`) and is used as is.
 * Issues on the whole input (empty path) are always used as is. `separator` goes between the
 * field and the rule: a space, or `: ` for the webhook family (`event_name: is required`).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, separator = ' '): z.output<S> {
  const result = parseWithRules(schema, input);
  if (result.success) return result.data;
  throw badRequest(result.error.issues.map((issue) => describeIssue(issue, separator)).join('; '));
}

/** safeParse with this module's rule texts, for callers that word the message their own way. */
export function parseWithRules<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(input, { error: describeRule });
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

function describeIssue(issue: z.core.$ZodIssue, separator: string): string {
  const field = formatPath(issue.path);
  if (field === '' || /^[A-Z]/.test(issue.message)) return issue.message;
  return `${field}${separator}${issue.message}`;
}

const ARTICLE: Record<string, string> = { array: 'an', object: 'an', int: 'an' };

// Zod's own default texts ("Invalid input: expected string...") never reach a client: every
// issue code gets a rule written here unless the schema gave one.
function describeRule(issue: z.core.$ZodRawIssue): string {
  if (issue.path === undefined || issue.path.length === 0) {
    if (issue.code === 'invalid_type') return 'request body must be a JSON object';
  }
  // An absent field fails as invalid_type or, for enums and literals, invalid_value.
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return 'is required';
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'integer' : issue.expected;
      return `must be ${ARTICLE[issue.expected] ?? 'a'} ${expected}`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return sizeRule('at least', issue.origin, issue.minimum, issue.inclusive);
    case 'too_big':
      return sizeRule('at most', issue.origin, issue.maximum, issue.inclusive);
    case 'invalid_format':
      return 'has an invalid format';
    case 'unrecognized_keys':
      return `contains unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return 'is invalid';
  }
}

function sizeRule(bound: string, origin: string, limit: number | bigint, inclusive: boolean | undefined): string {
  if (origin === 'array' || origin === 'set') return `must contain ${bound} ${limit} item(s)`;
  if (origin === 'string') return `must be ${bound} ${limit} character(s) long`;
  if (inclusive === false) return `must be ${bound === 'at least' ? 'greater' : 'less'} than ${limit}`;
  return `must be ${bound} ${limit}`;
}
