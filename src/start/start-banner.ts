import type { CallerAuthConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * What `npm start` tells a person once it is up: where to click, what to log in with, how to drive
 * the sandbox. On a terminal, a block of text; otherwise (a container, a log collector) one JSON log
 * line with the same facts, so the log stays machine-readable.
 */
export interface StartFacts {
  url: string;
  graphiql: boolean;
  upstream: string;
  /** Who may do what, in a sentence (accessSummary). */
  access: string;
  /** The embedded sandbox, when no bank is configured. */
  sandbox?: { url: string; credentials: { clientKey: string; clientSecret: string; email: string } };
}

export function announceStart(
  facts: StartFacts,
  logger: Logger,
  terminal: { isTTY?: boolean; write(text: string): unknown } = process.stdout,
): void {
  if (terminal.isTTY !== true) {
    logger.info(
      {
        ...facts,
        sandbox: facts.sandbox && {
          url: facts.sandbox.url,
          controlApi: `${facts.sandbox.url}/sandbox/`,
          email: facts.sandbox.credentials.email,
        },
      },
      'gateway ready',
    );
    return;
  }
  terminal.write(`${startBanner(facts)}\n`);
}

export function startBanner(facts: StartFacts): string {
  const lines = ['', `  Banking GraphQL gateway ready`, ''];
  lines.push(
    facts.graphiql
      ? `  GraphiQL      ${facts.url}  (open it in a browser)`
      : `  GraphQL       ${facts.url}  (GraphiQL is off: GRAPHIQL=true turns it on)`,
  );
  if (facts.sandbox) {
    const { url, credentials } = facts.sandbox;
    lines.push(
      `  Bank          embedded sandbox at ${url}, demo data loaded`,
      `  Sandbox API   ${url}/sandbox/  (reset, clock, faults, deposits, events...)`,
      `  Demo login    accessTokenCreate with email ${credentials.email}`,
      `                (the gateway logs in itself: no credentials needed to query)`,
      `                client key ${credentials.clientKey}, secret ${credentials.clientSecret}`,
    );
  } else {
    lines.push(`  Bank          ${facts.upstream}`);
  }
  lines.push(`  Who may call  ${facts.access}`);
  lines.push('', '  Stop with Ctrl-C.', '');
  return lines.join('\n');
}

/** Who may do what under this configuration, for the banner: the mode, and whose roles come from where. */
export function accessSummary(auth: CallerAuthConfig): string {
  if (auth.mode === 'none')
    return 'everyone, and every caller may do everything (AUTH_MODE=none, embedded sandbox only; docs/permissions.md)';
  if (auth.mode === 'passthrough') {
    const roles = auth.passthrough?.roles ?? ['admin'];
    const own = auth.passthrough?.users.length ?? 0;
    return `callers with a bank token (AUTH_MODE=passthrough); bank users hold ${roles.join('+')}${own > 0 ? `, ${own} of them roles of their own` : ''}`;
  }
  const keys = auth.apiKeys.map((key) => `${key.name} (${key.cardholderId ? `cardholder@${key.cardholderId}` : key.roles.join('+')})`);
  const parts = [
    keys.length > 0 ? `API keys ${keys.join(', ')}` : undefined,
    auth.jwt ? `JWTs of ${auth.jwt.issuer}, roles and permissions from their claims` : undefined,
  ];
  return `${parts.filter(Boolean).join('; ')} (AUTH_MODE=service)`;
}
