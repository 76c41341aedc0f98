import { describe, expect, it } from 'vitest';
import { DateTimeScalar } from './scalars.ts';

describe('DateTime', () => {
  it('is written as ISO 8601 text at UTC, whatever form it was read in', () => {
    const at = '2026-01-05T10:00:00.000Z';
    expect(DateTimeScalar.serialize(new Date(at))).toBe(at);
    expect(DateTimeScalar.serialize('2026-01-05T11:00:00+01:00')).toBe(at);
    expect(DateTimeScalar.serialize(Date.parse(at))).toBe(at);
    // Text, not a Date: JSON.stringify writes an answer holding no Date on its fast path.
    expect(typeof DateTimeScalar.serialize(new Date(at))).toBe('string');
  });

  it('refuses what is no point in time, as graphql-scalars does', () => {
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow('DateTime cannot represent an invalid Date instance');
    expect(() => DateTimeScalar.serialize('yesterday')).toThrow('DateTime cannot represent an invalid date-time-string yesterday.');
    expect(() => DateTimeScalar.serialize(true)).toThrow('DateTime cannot be serialized from a non string');
  });
});
