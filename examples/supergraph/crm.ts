import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';

/**
 * A company's CRM as a Federation 2 subgraph, beside the banking gateway's: it knows who looks after
 * each payee and which payouts belong to its deals. It stores the bank's ids (`upstreamId`), never
 * copies of the bank's records: the router asks the banking gateway for everything else.
 */

const typeDefs = parse(/* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  "A payee of the company: the bank holds it, the CRM adds who looks after the relationship."
  type Beneficiary @key(fields: "upstreamId") {
    upstreamId: String!
    "The colleague who looks after this payee; null for a payee the CRM does not know."
    relationshipManager: RelationshipManager
  }

  "A colleague in charge of some payees."
  type RelationshipManager {
    name: String!
    email: String!
  }

  "A payout the CRM has linked to a deal: the banking gateway answers for everything about it."
  type Payout @key(fields: "upstreamId", resolvable: false) {
    upstreamId: String!
  }

  type Query {
    "Payouts linked to the CRM's deals, most recent first."
    dealPayouts: [Payout!]!
  }
`);

/** Who looks after each of the sandbox's demo payees. */
const MANAGERS: Record<string, { name: string; email: string }> = {
  ben_demo_us: { name: 'Maya Chen', email: 'maya.chen@example.com' },
  ben_demo_gb: { name: 'Tom Okafor', email: 'tom.okafor@example.com' },
  ben_demo_de: { name: 'Lena Vogel', email: 'lena.vogel@example.com' },
};

/** The sandbox's demo payout, linked to a deal. */
const DEAL_PAYOUTS = ['pay_demo_1'];

const resolvers = {
  Query: {
    dealPayouts: () => DEAL_PAYOUTS.map((upstreamId) => ({ upstreamId })),
  },
  Beneficiary: {
    __resolveReference: (reference: { upstreamId: string }) => reference,
    relationshipManager: (beneficiary: { upstreamId: string }) => MANAGERS[beneficiary.upstreamId] ?? null,
  },
};

const crmSchema = buildSubgraphSchema({ typeDefs, resolvers });

/** The CRM's GraphQL endpoint (graphql-yoga), to listen with node:http. */
export const crmYoga = createYoga({ schema: crmSchema, graphqlEndpoint: '/graphql', logging: false, graphiql: false });
