import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLError, ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QueryLimitsConfig } from '../settings/index.ts';
import { LIMIT_HINTS, tooComplex, type LimitName } from './refusal.ts';

/**
 * graphql-armor's shape limits: tokens while parsing, depth, aliases and directives while validating.
 * Each refusal is reported as a coded error (QUERY_TOO_COMPLEX) instead of armor's thrown, uncoded
 * "Syntax Error"; in production the message does not tell the limit. Cost is checked just before
 * execution (operation-limits.ts), where the page sizes in variables are known; field suggestions
 * are hidden by validation-policy.ts, which also covers enum suggestions armor's mask misses.
 */
export function armorPlugin(limits: QueryLimitsConfig): Plugin {
  const wording = (limit: LimitName) => ({
    exposeLimits: !limits.production,
    errorMessage: LIMIT_HINTS[limit],
  });
  const reported = (limit: LimitName) => ({
    ...wording(limit),
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(tooComplex(limit, error.message))],
  });
  return EnvelopArmorPlugin({
    maxTokens: {
      n: limits.maxTokens,
      ...wording('tokens'),
      // The lexer has no validation context to report to: the refusal is thrown out of the parser.
      propagateOnRejection: false,
      onReject: [
        (_, error) => {
          throw tooComplex('tokens', error.message);
        },
      ],
    },
    // A fragment is a name for fields, not a level of the response.
    maxDepth: { n: limits.maxDepth, flattenFragments: true, ...reported('depth') },
    maxAliases: { n: limits.maxAliases, ...reported('aliases') },
    maxDirectives: { n: limits.maxDirectives, ...reported('directives') },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: false },
  });
}
