import type { DocumentNode } from 'graphql';
import { rootFields } from '../platform/root-fields.ts';

/**
 * What a passthrough caller without a token may run: the login mutation, and introspection so
 * GraphiQL can show the schema to someone about to log in. `__typename` goes with either.
 */
export function anonymousMayRun(document: DocumentNode, operationName?: string | null): boolean {
  const root = rootFields(document, operationName);
  if (!root || root.fields.size === 0) return false;
  const allowed =
    root.type === 'mutation' ? ['accessTokenCreate', '__typename'] : root.type === 'query' ? ['__schema', '__type', '__typename'] : [];
  return [...root.fields].every((field) => allowed.includes(field));
}
