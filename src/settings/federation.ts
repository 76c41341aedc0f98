/**
 * In a supergraph (FEDERATION_*): the gateway as an Apollo Federation 2 subgraph behind a router,
 * and the rule that keeps the subgraph's own doors to that router.
 */

import { flagOr, group, setting, text } from '@banking-gateway/settings';
import type { z } from 'zod';
import type { RawEnvironment } from './raw-environment.ts';

export const federationGroup = group(
  'In a supergraph',
  'The gateway as an Apollo Federation 2 subgraph behind a router (Apollo Router, Hive Gateway). See [federation.md](federation.md).',
  {
    subgraph: setting(
      'FEDERATION_SUBGRAPH',
      flagOr(false),
      "serve the graph as a Federation 2 subgraph: its entities' keys, `_entities` and `_service` (schema/subgraph.graphql); off, the graph is schema/schema.graphql",
    ),
    routerToken: setting(
      'FEDERATION_ROUTER_TOKEN',
      text(),
      'the secret your router sends as `x-router-token`: only requests carrying it may use `_entities` and `_service`, and with `TRUSTED_DOCUMENTS` they may send the query plans the router makes; required with `FEDERATION_SUBGRAPH` and a real bank or `TRUSTED_DOCUMENTS`; never logged',
      'unset (embedded sandbox: anyone may)',
    ),
  },
);

/** As a Federation 2 subgraph behind a router. */
export type FederationConfig = z.output<typeof federationGroup>;

/**
 * A subgraph's own doors (`_entities`, `_service`) and its exemption from the trusted documents
 * (a router sends query plans, not the clients' documents) belong to the router alone: with a real
 * bank or trusted documents, the start stops until the router's secret says which requests are its.
 */
export function federationProblems({ env, set, variable }: RawEnvironment): string[] {
  const [SUBGRAPH, TOKEN] = [variable('federation.subgraph'), variable('federation.routerToken')];
  const subgraph = /^(true|1|yes|on)$/i.test(env[SUBGRAPH] ?? '');
  if (!subgraph) return set('federation.routerToken') ? [`${TOKEN} is used only with ${SUBGRAPH}=true`] : [];
  if (set('federation.routerToken')) return [];
  const why = [
    set('upstream.baseUrl') ? variable('upstream.baseUrl') : undefined,
    set('limits.trustedDocuments') ? variable('limits.trustedDocuments') : undefined,
  ].filter(Boolean);
  return why.length > 0
    ? [`${TOKEN} is required with ${SUBGRAPH}=true and ${why.join(' and ')}: only your router may use _entities and _service`]
    : [];
}
