import {
  BREAK,
  getNamedType,
  getOperationAST,
  GraphQLObjectType,
  isAbstractType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { mapSchema, MapperKind } from '@graphql-tools/utils';

/**
 * Compiled execution, tried (issue 57): graphql-jit in place of graphql-js for the documents it
 * applies to, added to a benchmark gateway through createGateway's `plugins`. Never in src/: the
 * gateway checks a record's permission in its type's isTypeOf with the request's context (Pothos
 * scope-auth, runScopesOnType), and graphql-jit calls isTypeOf with the record alone, so it cannot
 * run those checks (docs/architecture.md, "Compiled execution"). To measure what compilation could
 * save at most, this compiles against a copy of the schema without those checks: an upper bound
 * that skips authorization, for the benchmark's admin caller only.
 */

/** Each document compiled once: its operation's name and what compiling it cost its first request. */
export interface CompiledDocument {
  operationName: string;
  compileMs: number;
  /**
   * The object types it reads whose records the gateway checks in isTypeOf: checks this compilation
   * left out, and which make the document fall back to graphql-js wherever it must run them.
   */
  checkedTypes: string[];
}

/** Directives whose documents graphql-js runs in any case: incremental delivery and live queries. */
const LEFT_TO_GRAPHQL_JS = new Set(['defer', 'stream', 'live']);

function usesLeftDirective(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (!LEFT_TO_GRAPHQL_JS.has(node.name.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** The schema without any object type's isTypeOf: what graphql-jit can run without the request's context. */
function withoutTypeChecks(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_TYPE]: (type) => new GraphQLObjectType({ ...type.toConfig(), isTypeOf: undefined }),
  });
}

/** The object types `document` may return (abstract ones through their possible types) whose isTypeOf is set. */
function typesCheckedInIsTypeOf(schema: GraphQLSchema, document: DocumentNode): string[] {
  const typeInfo = new TypeInfo(schema);
  const found = new Set<string>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const type = getNamedType(typeInfo.getType());
        const objects = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
        for (const object of objects) if (object.isTypeOf) found.add(object.name);
      },
    }),
  );
  return [...found].sort();
}

/** The plugin, and the documents it compiled so far. */
export function compiledExecution(): { plugin: Plugin; compiled: () => CompiledDocument[] } {
  const schemas = new WeakMap<GraphQLSchema, GraphQLSchema>();
  // By document: the gateway parses a repeated text once (Yoga's parse cache), so a document seen
  // before is the same object.
  const queries = new WeakMap<DocumentNode, CompiledQuery | null>();
  const compiled: CompiledDocument[] = [];
  const compile = (args: ExecutionArgs): CompiledQuery | null => {
    let schema = schemas.get(args.schema);
    if (!schema) schemas.set(args.schema, (schema = withoutTypeChecks(args.schema)));
    const started = performance.now();
    const result = compileQuery(schema, args.document, args.operationName ?? undefined);
    const compileMs = performance.now() - started;
    compiled.push({
      operationName: getOperationAST(args.document, args.operationName)?.name?.value ?? '(anonymous)',
      compileMs,
      checkedTypes: typesCheckedInIsTypeOf(args.schema, args.document),
    });
    return isCompiledQuery(result) ? result : null;
  };
  const queryOf = (args: ExecutionArgs): CompiledQuery | null => {
    if (!queries.has(args.document)) queries.set(args.document, compile(args));
    return queries.get(args.document)!;
  };
  const plugin: Plugin = {
    onExecute({ args, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation === 'subscription') return;
      if (usesLeftDirective(args.document) || !queryOf(args)) return;
      setExecuteFn((executeArgs: ExecutionArgs) =>
        queryOf(executeArgs)!.query(executeArgs.rootValue, executeArgs.contextValue, executeArgs.variableValues ?? {}),
      );
    },
  };
  return { plugin, compiled: () => [...compiled] };
}
