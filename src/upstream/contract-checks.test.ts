import { describe, expect, it } from 'vitest';
import type { ContractCheckConfig } from '../settings/index.ts';
import { createLogger } from '../platform/logger.ts';
import { collapseIndexes, CONTRACT_CHECK_INTERVAL_MS, ContractChecks } from './contract-checks.ts';
import { NO_OBSERVER } from './observer.ts';

const A = 'GET /svc/api/v1/card';
const B = 'GET /svc/api/v1/card/detail';

function setup(config: ContractCheckConfig) {
  let now = 1_000_000;
  const checked: string[] = [];
  const violations: string[] = [];
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line) => lines.push(line) });
  const observer = {
    ...NO_OBSERVER,
    contractCheck: (e: string) => checked.push(e),
    contractViolation: (e: string, p: string) => violations.push(`${e} ${p}`),
  };
  const checks = new ContractChecks(config, observer, logger, () => now);
  const answers = (endpoint: string, count: number) => Array.from({ length: count }, () => checks.wanted(endpoint)).filter(Boolean).length;
  return { checks, checked, violations, lines, answers, advance: (ms: number) => (now += ms) };
}

describe('ContractChecks', () => {
  it('samples the first answer of each endpoint, then the share asked for, and one a minute at least', () => {
    const { answers, checked, advance } = setup({ mode: 'sample', samplePercent: 1 });
    expect(answers(A, 1)).toBe(1);
    expect(answers(B, 1)).toBe(1);
    // 1 % of the next 300 answers: every hundredth.
    expect(answers(A, 300)).toBe(3);
    expect(answers(A, 10)).toBe(0);
    advance(CONTRACT_CHECK_INTERVAL_MS);
    expect(answers(A, 1)).toBe(1);
    expect(checked.filter((e) => e === A)).toHaveLength(5);
  });

  it('checks every answer with all, none with off', () => {
    expect(setup({ mode: 'all', samplePercent: 0 }).answers(A, 7)).toBe(7);
    expect(setup({ mode: 'all', samplePercent: 0 }).checks.failsWhole).toBe(true);
    const off = setup({ mode: 'off', samplePercent: 100 });
    expect(off.answers(A, 7)).toBe(0);
    expect(off.checked).toEqual([]);
  });

  it('counts each violation by endpoint and field, array indexes collapsed, and warns once per field per interval', () => {
    const { checks, violations, lines, advance } = setup({ mode: 'sample', samplePercent: 1 });
    const issues = [{ path: 'data[0].brand', message: 'expected string' }];
    checks.found(B, 'req-1', issues);
    checks.found(B, 'req-2', [{ path: 'data[3].brand', message: 'expected string' }]);
    expect(violations).toEqual([`${B} data[].brand`, `${B} data[].brand`]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, endpoint: B, path: 'data[].brand', requestId: 'req-1' });
    advance(CONTRACT_CHECK_INTERVAL_MS);
    checks.found(B, 'req-3', issues);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ notLoggedSince: 1 });
  });

  it('keeps the label values of one endpoint bounded, whatever keys a payload invents', () => {
    const { checks, violations } = setup({ mode: 'off', samplePercent: 0 });
    checks.found(
      A,
      'req',
      Array.from({ length: 60 }, (_, i) => ({ path: `data.metadata.key${i}`, message: 'x' })),
    );
    expect(new Set(violations).size).toBe(51);
    expect(violations.at(-1)).toBe(`${A} (other fields)`);
  });

  it('collapses indexes at every depth', () => {
    expect(collapseIndexes('data[12].items[0].status')).toBe('data[].items[].status');
  });
});
