import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/reader.ts';
import { loadSandboxSettings } from '../src/sandbox.ts';

describe('loadSandboxSettings', () => {
  it('reads the sandbox group alone, whatever else the environment holds, with the program in any case', () => {
    expect(loadSandboxSettings({ SANDBOX_PORT: '4999', SANDBOX_PROGRAM: 'banking', PORT: 'not read here' })).toMatchObject({
      port: 4999,
      program: 'BANKING',
    });
  });

  it('names the sandbox variables it refuses', () => {
    const load = () => loadSandboxSettings({ SANDBOX_PORT: '-1', SANDBOX_PROGRAM: 'LOANS', SANDBOX_LATENCY_MS: 'slow' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      expect.objectContaining({
        problems: [
          'SANDBOX_PORT must be at least 0',
          'SANDBOX_LATENCY_MS must be a number',
          'SANDBOX_PROGRAM must be one of CARDS, BANKING',
        ],
      }),
    );
  });
});
