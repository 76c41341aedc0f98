import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../src/domains/index.ts';
import { EVENT_NAMES } from '../src/events/catalogue.ts';

describe('the domains as they register with the core', () => {
  it('give every catalogue event exactly one default for POST /sandbox/events', () => {
    const owners = EVENT_NAMES.map((name) => [name, DOMAINS.filter((domain) => domain.eventDefaults?.[name] !== undefined).map((domain) => domain.name)]);
    expect(owners.filter(([, domains]) => domains.length !== 1)).toEqual([]);
  });

  it('name each collection once, and no core collection', () => {
    const names = DOMAINS.flatMap((domain) => Object.keys(domain.collections?.() ?? {}));
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('emails');
    expect(names).not.toContain('jobs');
    expect(names.length).toBeGreaterThan(20);
  });

  it('have distinct names and job kinds', () => {
    expect(new Set(DOMAINS.map((domain) => domain.name)).size).toBe(DOMAINS.length);
    const kinds = DOMAINS.flatMap((domain) => Object.keys(domain.jobs ?? {}));
    expect(new Set(kinds).size).toBe(kinds.length);
  });
});
