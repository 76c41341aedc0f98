import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settingsIn, settingsReader } from '../src/reader.ts';
import { group, groupAs, int, setting, text } from '../src/rules.ts';

const schema = z
  .object({
    server: group('The server', 'Where it listens.', { port: setting('PORT', int(0, 65535, 80), 'port to listen on') }),
    proxy: groupAs(
      'The proxy',
      'Where calls go.',
      {
        url: setting('PROXY_URL', text(), 'where calls go'),
        timeoutMs: setting('PROXY_TIMEOUT_MS', int(1, 1_000, 100), 'how long one call may take'),
      },
      ({ url, timeoutMs }) => (url ? { url, timeoutMs } : undefined),
    ),
  })
  .transform((groups) => ({ ...groups, listening: `:${groups.server.port}` }));

describe('a schema of groups read into views', () => {
  it('finds the settings of a group read into a view, and keeps what the docs say of the group', () => {
    expect(settingsIn(schema).map((entry) => [entry.path.join('.'), entry.meta.env])).toEqual([
      ['server.port', 'PORT'],
      ['proxy.url', 'PROXY_URL'],
      ['proxy.timeoutMs', 'PROXY_TIMEOUT_MS'],
    ]);
    expect(schema.in.shape.proxy.meta()).toMatchObject({ title: 'The proxy', description: 'Where calls go.' });
  });

  it('reads the environment into the views, and names each problem by its variable', () => {
    const reader = settingsReader(schema);
    expect(reader.read({})).toEqual({ ok: true, settings: { server: { port: 80 }, proxy: undefined, listening: ':80' } });
    expect(reader.read({ PROXY_URL: 'http://proxy', PORT: '8080' })).toEqual({
      ok: true,
      settings: { server: { port: 8080 }, proxy: { url: 'http://proxy', timeoutMs: 100 }, listening: ':8080' },
    });
    expect(reader.read({ PORT: 'eighty', PROXY_TIMEOUT_MS: '0' })).toEqual({
      ok: false,
      problems: ['PORT must be a number', 'PROXY_TIMEOUT_MS must be at least 1'],
    });
    expect(reader.variable('proxy.timeoutMs')).toBe('PROXY_TIMEOUT_MS');
  });
});
