import type { IncomingMessage } from 'node:http';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import type { CallerAuthConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { UpstreamRuntime } from '../upstream/index.ts';
import { ANONYMOUS, type CallerIdentity } from './identity.ts';

/** A graphql-ws connection refused at connection_init: closed with this code and reason. */
export interface SocketRefusal {
  code: number;
  reason: string;
}

/** Caller authentication for every transport: HTTP, SSE (both through Yoga) and graphql-ws. */
export interface CallerAuth {
  config: CallerAuthConfig;
  /** Yoga plugins that refuse unauthenticated requests before the document is parsed. */
  plugins: Plugin[];
  cors: YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors'];
  /** The identity of an HTTP/SSE request the plugins let in. */
  identify(request: Request): Promise<CallerIdentity>;
  /** graphql-ws `connection_init`: who connected, or why the socket is refused. */
  authorizeSocket(request: IncomingMessage, connectionParams: Record<string, unknown> | undefined): Promise<CallerIdentity | SocketRefusal>;
  /** WebSocket upgrades: whether a browser origin may connect. */
  originAllowed(origin: string | undefined): boolean;
}

export interface CallerAuthDeps {
  upstream: UpstreamRuntime;
  logger: Logger;
}

/** `Authorization: Bearer <token>` → the token. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

export function createCallerAuth(config: CallerAuthConfig, _deps: CallerAuthDeps): CallerAuth {
  const fromBearer = (header: string | null | undefined): CallerIdentity => {
    const token = bearerToken(header);
    return token ? { kind: 'upstream-token', name: 'upstream-token', upstreamToken: token } : ANONYMOUS;
  };
  return {
    config,
    plugins: [],
    cors: false,
    identify: async (request) => fromBearer(request.headers.get('authorization')),
    authorizeSocket: async (request, params) =>
      fromBearer((params?.authorization as string | undefined) ?? request.headers.authorization),
    originAllowed: () => true,
  };
}
