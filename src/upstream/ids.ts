/**
 * What a bank id may look like before it goes into a path, a query or a header. The documents give
 * no id format, so the rule is permissive and refuses only what would change the request's meaning:
 * `.` and `..` (a path resolves them to the parent: `DELETE /transfer/beneficiary/..` is
 * `DELETE /transfer/`), separators and escapes (`/ \ ? # %`), whitespace and control characters.
 */
const MAX_LENGTH = 128;
const UNSAFE = /[\s/\\?#%\p{Cc}]/u;

export const BANK_ID_RULE = 'must be a bank id: 1 to 128 characters, not . or .., without / \\ ? # % or whitespace';

/** The rule `value` breaks as a bank id, or undefined when it is a plausible one. */
export function bankIdProblem(value: string): string | undefined {
  const plausible = value.length > 0 && value.length <= MAX_LENGTH && value !== '.' && value !== '..' && !UNSAFE.test(value);
  return plausible ? undefined : BANK_ID_RULE;
}
