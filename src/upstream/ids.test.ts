import { describe, expect, it } from 'vitest';
import { BANK_ID_RULE, bankIdProblem } from './ids.ts';

describe('bankIdProblem', () => {
  it('passes the ids banks hand out', () => {
    for (const id of ['acc_demo_usd', 'ben_1a2b', '7f3c9e0a-5d2b-4c1e-9a8f-0b1c2d3e4f5a', 'A1.b2', '...', 'x'.repeat(128), 'conn:demo@1']) {
      expect(bankIdProblem(id), id).toBeUndefined();
    }
  });

  it('refuses what would change the meaning of a path, query or header', () => {
    for (const id of ['', '.', '..', 'a/b', 'a\\b', 'a?b=1', 'a#b', '%2e%2e', 'a b', 'a\tb', 'a\nb', 'a\u0000b', 'x'.repeat(129)]) {
      expect(bankIdProblem(id), JSON.stringify(id)).toBe(BANK_ID_RULE);
    }
  });
});
