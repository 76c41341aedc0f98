import type { ContractIssue } from '../../src/upstream/errors.ts';
import type { LazyReading } from '../../src/upstream/lazy-model.ts';

/** The contract failure of a lazy read, with its issues, as the tests of src/upstream/lazy-*.ts look at it. */
export class Broken extends Error {
  readonly issues: ContractIssue[];
  constructor(issues: ContractIssue[]) {
    super(issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
    this.issues = issues;
  }
}

/** A reading that throws Broken with the issues of a field that breaks its rule. */
export const FAIL: LazyReading = {
  fail: (issues) => {
    throw new Broken(issues);
  },
};
