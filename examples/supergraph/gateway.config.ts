import { defineConfig } from '@graphql-hive/gateway';

/**
 * Hive Gateway in front of the banking gateway and the CRM (`hive-gateway supergraph` reads this
 * file; run.ts writes supergraph.graphql first). What the banking gateway needs of a router:
 * - the client's credentials on every request to it, so it authorizes, limits, audits and logs the
 *   end caller, never the router;
 * - the router's own secret (FEDERATION_ROUTER_TOKEN) as `x-router-token`, without which it answers
 *   no `_entities`;
 * - its subscriptions over graphql-ws, with the client's credentials as connection params.
 */
const ROUTER_TOKEN = '{env.FEDERATION_ROUTER_TOKEN}';
const CLIENT_CREDENTIALS = ['x-api-key', 'authorization'];

export const gatewayConfig = defineConfig({
  supergraph: './supergraph.graphql',
  // @defer and @stream from the clients: the router plans each deferred part as a fetch of its own.
  deferStream: true,
  propagateHeaders: {
    fromClientToSubgraphs: ({ request, subgraphName }) => {
      if (subgraphName !== 'bank') return {};
      const forwarded: Record<string, string> = {};
      for (const name of CLIENT_CREDENTIALS) {
        const value = request.headers.get(name);
        if (value) forwarded[name] = value;
      }
      return forwarded;
    },
  },
  transportEntries: {
    bank: {
      headers: [['x-router-token', ROUTER_TOKEN]],
      options: {
        subscriptions: {
          kind: 'ws',
          location: '/graphql',
          headers: [['x-router-token', ROUTER_TOKEN]],
          options: {
            connectionParams: {
              'x-api-key': '{context.headers.x-api-key}',
              authorization: '{context.headers.authorization}',
            },
          },
        },
      },
    },
  },
});
