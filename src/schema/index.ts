import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { lexicographicSortSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { builder } from '../builder.ts';
import './common.ts';
import './auth.ts';
import './accounts.ts';
import './beneficiaries.ts';
import './fx.ts';
import './payouts.ts';
import './cardholders.ts';
import './wallets.ts';
import './onboarding.ts';
import './cards.ts';
import './card-mutations.ts';
import './webhooks.ts';
import './direct-debit.ts';
import './events.ts';

/**
 * The whole graph, sorted so the printed SDL diffs cleanly. Each domain registers itself by import.
 * `@defer` and `@stream` are declared in it (the definitions Yoga's defer-stream plugin executes), so
 * clients' codegen and editors know them too.
 */
export function buildSchema(): GraphQLSchema {
  return lexicographicSortSchema(builder.toSchema({ directives: [...specifiedDirectives, GraphQLDeferDirective, GraphQLStreamDirective] }));
}
