import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig, SETTINGS } from '../config.ts';
import { defaultOf, DOC_PATH, ENV_EXAMPLE_PATH, envExample, variableTables, withTables } from './config-docs.ts';

describe('the configuration docs', () => {
  it('are what the schema says: docs/configuration.md and .env.example (npm run config:docs writes them)', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    expect(doc).toBe(withTables(doc, variableTables()));
    expect(readFileSync(ENV_EXAMPLE_PATH, 'utf8')).toBe(envExample());
  });

  it('name each variable once, with a meaning and a rule', () => {
    expect(new Set(CONFIG_VARIABLES).size).toBe(CONFIG_VARIABLES.length);
    for (const { meta } of SETTINGS) {
      expect(meta.env).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(meta.meaning.length).toBeGreaterThan(10);
      expect(meta.rule.length).toBeGreaterThan(3);
    }
  });

  it('give the defaults the configuration really takes', () => {
    const defaults = loadConfig({});
    const byVariable = new Map(SETTINGS.map((entry) => [entry.meta.env, defaultOf(entry)]));
    expect(byVariable.get('PORT')).toBe(`\`${defaults.server.port}\``);
    expect(byVariable.get('EVENT_LOG_MAX_AGE_MS')).toBe(`\`${defaults.events.log.maxAgeMs}\``);
    expect(byVariable.get('BREAKER_ERROR_RATE')).toBe(`\`${defaults.resilience.breaker.errorRate}\``);
    expect(byVariable.get('REDIS_URL')).toBe('unset');
  });
});
