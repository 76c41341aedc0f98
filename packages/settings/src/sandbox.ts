import { z } from 'zod';
import { ConfigError, settingsReader } from './reader.ts';
import { group, int, setting, text, textOr } from './rules.ts';

/**
 * The sandbox's settings: read by `npm run sandbox` on its own, and held as they are by the
 * gateway's configuration, whose `npm start` embeds the sandbox. They live here, not in the
 * sandbox, so the gateway reads them without depending on its test double.
 */

/** The card programs the sandbox simulates: the values of SANDBOX_PROGRAM (the sandbox's program.ts says what each allows). */
export const PROGRAMS = ['CARDS', 'BANKING'] as const;

/** `npm run sandbox` and the embedded sandbox of `npm start`. */
export const sandboxSettingsSchema = group('The sandbox', 'The embedded sandbox of `npm start`, and `npm run sandbox` on its own.', {
  port: setting('SANDBOX_PORT', int(0, 65535, 4010), 'port of the embedded sandbox (and of `npm run sandbox`)'),
  host: setting('SANDBOX_HOST', textOr('127.0.0.1'), 'interface `npm run sandbox` listens on (the embedded sandbox always uses loopback)'),
  latencyMs: setting(
    'SANDBOX_LATENCY_MS',
    int(0, 60_000, 0),
    "time from each API call's arrival to its answer (the sandbox does the call's work inside it)",
  ),
  webhookSigningSecret: setting(
    'SANDBOX_WEBHOOK_SIGNING_SECRET',
    text(),
    "secret `npm run sandbox` signs its webhook deliveries with (the embedded sandbox shares the gateway's)",
  ),
  program: setting(
    'SANDBOX_PROGRAM',
    z
      .preprocess(
        (v) => (typeof v === 'string' && v !== '' ? v.toUpperCase() : undefined),
        z.enum(PROGRAMS, { error: `must be one of ${PROGRAMS.join(', ')}` }).default('CARDS'),
      )
      .meta({ rule: PROGRAMS.join(', ') }),
    'card program the sandbox simulates (`npm run sandbox` only; the embedded one uses CARDS)',
  ),
});

export type SandboxSettings = z.output<typeof sandboxSettingsSchema>;

const sandboxSettings = settingsReader(sandboxSettingsSchema);

/** The sandbox's settings from the environment; a ConfigError lists every problem. */
export function loadSandboxSettings(env: NodeJS.ProcessEnv = process.env): SandboxSettings {
  const result = sandboxSettings.read(env);
  if (!result.ok) throw new ConfigError(result.problems);
  return result.settings;
}
