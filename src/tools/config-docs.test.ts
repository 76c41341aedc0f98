import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONFIG_VARIABLES, loadConfig, SETTINGS } from '../settings/index.ts';
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
    expect(byVariable.get('AUDIT_LOG')).toBe('`stdout`');
  });

  it('write every default as words, never as an object printed as [object Object]', () => {
    for (const entry of SETTINGS) expect(defaultOf(entry), entry.meta.env).not.toContain('[object ');
    expect(variableTables()).not.toContain('[object ');
    expect(envExample()).not.toContain('[object ');
    expect(readFileSync(DOC_PATH, 'utf8')).not.toContain('[object ');
    const shaped = {
      path: ['destination'],
      schema: z
        .string()
        .default('stdout')
        .transform((kind) => ({ kind })),
      meta: { env: 'SOME_DESTINATION', meaning: 'where', rule: 'text' },
    };
    expect(() => defaultOf(shaped)).toThrow(
      'SOME_DESTINATION: its default is read into a shape, not text: give the setting its default in words',
    );
  });
});
