import { GraphQLError, NoSchemaIntrospectionCustomRule, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/**
 * What validation tells a caller. Introspection is refused with graphql-js' own rule rather than
 * @graphql-yoga/plugin-disable-introspection, which decides per HTTP request in onRequestParse and
 * so never applies to graphql-ws, where Yoga is reached through getEnveloped. In production,
 * "Did you mean …?" suggestions are cut from every error (field, type, argument and enum names
 * alike; armor's mask misses the last): with introspection off they would hand the schema out one
 * guess at a time.
 */
export function useValidationPolicy(options: { introspection: boolean; hideSuggestions: boolean }): Plugin {
  const presentResult = ({
    result,
    setResult,
  }: {
    result: ExecutionResult | AsyncIterable<ExecutionResult>;
    setResult: (r: ExecutionResult) => void;
  }) => {
    // Streams carry per-event errors from resolvers, which say nothing of the schema.
    if (isAsyncIterable(result) || !result.errors) return;
    setResult({ ...result, errors: result.errors.map(withoutSuggestions) });
  };
  return {
    onValidate: ({ addValidationRule }) => {
      if (!options.introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
      return ({ valid, result, setResult }) => {
        if (!valid && options.hideSuggestions) setResult(result.map((e) => (e instanceof GraphQLError ? withoutSuggestions(e) : e)));
      };
    },
    // Variables are coerced at execution; their errors suggest enum values too. Without suggestions
    // to hide, no hook per operation: Yoga pays for each one whether or not it has work.
    ...(options.hideSuggestions
      ? {
          onExecute: () => ({ onExecuteDone: presentResult }),
          onSubscribe: () => ({ onSubscribeResult: presentResult }),
        }
      : {}),
  };
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

function withoutSuggestions(error: GraphQLError): GraphQLError {
  const message = error.message.replace(SUGGESTION, '');
  if (message === error.message) return error;
  const { nodes, source, positions, path, originalError, extensions } = error;
  return new GraphQLError(message, { nodes, source, positions, path, originalError, extensions });
}
