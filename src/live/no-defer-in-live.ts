import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import { getLiveDirectiveNode } from '@n1ru4l/graphql-live-query';
import { directivesReached, isOn } from '../platform/reached-directives.ts';

const INCREMENTAL = new Set(['defer', 'stream']);

/**
 * A live query is re-run and pushed whole: @defer and @stream anywhere in what it executes (its own
 * selection, or a fragment it spreads, however deep) are refused, naming @live and where they are.
 *
 * It replaces @n1ru4l/graphql-live-query's NoLiveMixedWithDeferStreamRule, which skips an operation
 * without @live but then visits every fragment definition of the document on its own, and reports
 * each @defer and @stream there: a query with no @live whose @defer sits in a named fragment (as
 * Relay and Apollo Client write them) was refused. This rule starts from each live operation and
 * follows only the fragments it spreads, so a document may also hold a query that defers.
 *
 * A `@live(if: $variable)` counts as live: the rule is decided once per document, before the
 * variables are known. A `@live(if: false)` or a `@defer(if: false)` written as such does not.
 */
export function NoDeferOrStreamInLiveQueryRule(context: ValidationContext): ASTVisitor {
  const fragmentNamed = (name: string) => context.getFragment(name) ?? undefined;
  return {
    OperationDefinition(operation) {
      const live = getLiveDirectiveNode(operation);
      if (!live || !isOn(live, undefined)) return false;
      const name = operation.name ? `The live query "${operation.name.value}"` : 'A live query';
      for (const { directive, fragment } of directivesReached(operation, fragmentNamed, INCREMENTAL)) {
        const where = fragment === undefined ? 'in its own selection' : `in fragment "${fragment}"`;
        const message = `Cannot mix "@${directive.name.value}" with "@live": ${name} reaches @${directive.name.value} ${where}. A live query is pushed whole each time it changes: remove @live, or the @${directive.name.value}.`;
        context.reportError(new GraphQLError(message, { nodes: [live, directive] }));
      }
      return false;
    },
  };
}
