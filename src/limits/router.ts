import type { Plugin } from 'graphql-yoga';
import { refusal } from './refusal.ts';
import { rootFields } from '../platform/root-fields.ts';
import { sameSecret } from '../platform/secrets.ts';

/**
 * The router of a supergraph, told from the clients it forwards (docs/federation.md): it carries
 * FEDERATION_ROUTER_TOKEN in this header. The end caller's own credentials come beside it, and the
 * gateway authorizes, limits, audits and logs that caller, as when it calls directly.
 */
const ROUTER_TOKEN_HEADER = 'x-router-token';

/** Whether a request comes from the router. Without a token (the embedded sandbox only) every request may act as one. */
export type RouterTraffic = (headers: { get(name: string): string | null }) => boolean;

export function routerTraffic(token: string | undefined): RouterTraffic {
  if (token === undefined) return () => true;
  return (headers) => {
    const given = headers.get(ROUTER_TOKEN_HEADER);
    return given !== null && sameSecret(given, token);
  };
}

/** The subgraph's own root fields: a router's doors into the graph, not a client's. */
const ROUTER_FIELDS = new Set(['_entities', '_service']);

/**
 * `_entities` and `_service` from anything but the router are refused before anything runs
 * (ROUTER_ONLY, 403): a client reads the same records by `node`, and the schema by introspection
 * where it is allowed.
 */
export function useRouterOnlyFields(isRouter: RouterTraffic): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (!request || isRouter(request.headers)) return;
      const root = rootFields(args.document, args.operationName);
      if (!root || ![...root.fields].some((field) => ROUTER_FIELDS.has(field))) return;
      setResultAndStopExecution({ errors: [routerOnly()] });
    },
  };
}

const routerOnly = () =>
  refusal(
    'ROUTER_ONLY',
    `_entities and _service answer only the supergraph's router (its ${ROUTER_TOKEN_HEADER} header): read records by node or nodes instead.`,
    {},
    { status: 403 },
  );
