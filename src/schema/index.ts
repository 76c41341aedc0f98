import { GraphQLDeferDirective, GraphQLStreamDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLLiveDirective } from '@n1ru4l/graphql-live-query';
import { printSubgraphSchema } from '@apollo/subgraph';
import { GraphQLObjectType, lexicographicSortSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { declaredPermission } from '../authorization/domains.ts';
import { builder } from '../builder.ts';
import { COST_DIRECTIVES, withCostDirectives } from './cost-directives.ts';
import { requirementOf, requirementText } from './requirements.ts';
import './scalars.ts';
import './mutation-errors.ts';
import './auth.ts';
import './me.ts';
import './rate-limit.ts';
import './accounts.ts';
import './beneficiaries.ts';
import './fx.ts';
import './payouts.ts';
import './cardholders.ts';
import './cardholder-mutations.ts';
import './wallets.ts';
import './onboarding.ts';
import './cards.ts';
import './card-mutations.ts';
import './webhooks.ts';
import './direct-debit.ts';
import './direct-debit-mutations.ts';
import './events.ts';
import './entities.ts';

/**
 * The whole graph, sorted so the printed SDL diffs cleanly. Each domain registers itself by import.
 * `@defer` and `@stream` are declared in it (the definitions Yoga's defer-stream plugin executes), and
 * `@live` (@n1ru4l/graphql-live-query's, which live/engine.ts executes), so clients' codegen and
 * editors know them too. Every root field and every type that needs a
 * permission says which in its description, from its declaration (requirements.ts).
 *
 * With `federation` (FEDERATION_SUBGRAPH), the same graph as an Apollo Federation 2 subgraph: its
 * entities' keys (entities.ts), `_entities` and `_service`, whose SDL is the subgraph's as served,
 * permissions in the descriptions included (schema/subgraph.graphql).
 */
export function buildSchema(options: { withoutAuthorization?: boolean; federation?: boolean } = {}): GraphQLSchema {
  const config = {
    directives: [
      ...specifiedDirectives,
      GraphQLDeferDirective,
      GraphQLStreamDirective,
      GraphQLLiveDirective,
      // Not in the subgraph: the composition the supergraph example uses knows no @cost or @listSize yet.
      ...(options.federation ? [] : COST_DIRECTIVES),
    ],
    // Only the benchmark's baseline (bench/authorization.ts), to measure what the checks cost: the gateway never builds it.
    disableScopeAuth: options.withoutAuthorization === true,
  };
  const built = options.federation ? builder.toSubGraphSchema({ ...config, linkUrl: FEDERATION_LINK }) : builder.toSchema(config);
  const schema = lexicographicSortSchema(withPermissionsDescribed(built));
  return options.federation ? withServiceSdl(schema) : withCostDirectives(schema);
}

/** The Federation version the subgraph declares (`@link`): 2.6, which Apollo Router and Hive Gateway compose. */
const FEDERATION_LINK = 'https://specs.apollo.dev/federation/v2.6';

/** `_service.sdl` printed from the schema as it is served, not as the federation plugin first built it. */
function withServiceSdl(schema: GraphQLSchema): GraphQLSchema {
  const sdl = printSubgraphSchema(schema);
  const service = schema.getQueryType()?.getFields()._service;
  if (!service) throw new Error('the subgraph schema has no _service field');
  service.resolve = () => ({ sdl });
  return schema;
}

function withPermissionsDescribed(schema: GraphQLSchema): GraphQLSchema {
  const described = (description: string | null | undefined, sentence: string) => (sentence ? `${description ?? ''}\n\n${sentence}`.trim() : description);
  return mapSchema(schema, {
    [MapperKind.ROOT_FIELD]: (field) => ({ ...field, description: described(field.description, requirementText(requirementOf(field))) }),
    [MapperKind.OBJECT_TYPE]: (type) => {
      const permission = declaredPermission(type);
      if (!permission) return type;
      const config = type.toConfig();
      return new GraphQLObjectType({ ...config, description: described(config.description, `Reading it needs the permission \`${permission}\`, wherever it appears.`) });
    },
  });
}
