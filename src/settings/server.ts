/** The gateway's own group of settings: where it listens and how it logs. */

import { group, int, oneOfOr, setting, text, textOr } from '@banking-gateway/settings';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

export const serverGroup = group('The gateway', 'Where it listens and how it logs.', {
  port: setting('PORT', int(0, 65535, 4000), 'HTTP port of the gateway (GraphQL, graphql-ws, health)'),
  host: setting('HOST', textOr('0.0.0.0'), 'interface to listen on'),
  logLevel: setting(
    'LOG_LEVEL',
    oneOfOr(LOG_LEVELS, 'info'),
    'pino, JSON lines (human-readable on a terminal); tokens and secrets redacted',
  ),
  nodeEnv: setting('NODE_ENV', text(), '`production` hides limits and suggestions and turns introspection and GraphiQL off'),
});
