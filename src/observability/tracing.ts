import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { GraphQLError, getOperationAST, type DocumentNode } from 'graphql';
import { isAsyncIterable, isPromise, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.ts';
import { semanticConventions } from '../platform/on-first-use.ts';
import { describeOperation, whenExecuted, type FinalResult } from './operation-outcome.ts';

/**
 * OpenTelemetry spans for GraphQL operations, with span names and attributes after Hive Gateway's
 * OpenTelemetry plugin: `graphql.operation <name>` (a server span, the child of the caller's W3C
 * `traceparent` or the root of a new trace), and under it `graphql.parse`, `graphql.validate` and
 * `graphql.execute` (or `graphql.subscribe`). Upstream attempts (upstream/stages/attempt-span-stage.ts)
 * and loader batches (tracedBatch) become children of whatever span is current as they start.
 *
 * Hand-written on Yoga's instrumentation API rather than @envelop/opentelemetry (9.2): that plugin
 * makes one execution span and no parse or validation span, ignores an incoming traceparent, and
 * pulls in the 1.x trace SDK beside ours; Hive's own plugin needs the Hive Gateway runtime. The
 * instrumentation wraps each phase, so the phase's span is the active context for everything the
 * phase does, later asynchronous work included (AsyncLocalStorage).
 *
 * The document and variables are not recorded: an inline argument may be a PIN or a card number.
 */

/** GraphQL attributes of the semantic conventions (still "development", so spelled out here) and the gateway's own. */
const GRAPHQL_ATTRIBUTES = {
  operationName: 'graphql.operation.name',
  operationType: 'graphql.operation.type',
  errorCount: 'gateway.graphql.error.count',
  errorCodes: 'gateway.graphql.error.codes',
  requestId: 'gateway.request.id',
} as const;

/** A W3C `traceparent` (and `tracestate`) read from a Fetch API request's headers. */
const HEADERS: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/**
 * The span of one operation, open while any phase of it is (execution ends with its last part) and,
 * over HTTP, until its answer is processed: its error codes are those of the errors the caller gets,
 * after masking (withTraceId counts them as it stamps them).
 */
class OperationTrace {
  readonly span: Span;
  readonly context: Context;
  #holds = 0;
  #errorCount = 0;
  readonly #codes = new Set<string>();

  constructor(tracer: Tracer, request: Request, requestId: string | undefined) {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers, HEADERS);
    this.span = tracer.startSpan(
      'graphql.operation',
      {
        kind: SpanKind.SERVER,
        attributes: {
          [semanticConventions().ATTR_HTTP_REQUEST_METHOD]: request.method,
          [semanticConventions().ATTR_URL_PATH]: new URL(request.url).pathname,
          ...(requestId ? { [GRAPHQL_ATTRIBUTES.requestId]: requestId } : {}),
        },
      },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
  }

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  /** Keeps the span open until the returned release is called (once; later calls do nothing). */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0) this.#end();
    };
  }

  named(name: string, type: string): void {
    this.span.updateName(`graphql.operation ${name}`);
    this.span.setAttributes({ [GRAPHQL_ATTRIBUTES.operationName]: name, [GRAPHQL_ATTRIBUTES.operationType]: type });
  }

  failed(errors: readonly { extensions?: Record<string, unknown> | undefined }[]): void {
    this.#errorCount += errors.length;
    for (const error of errors) {
      const code = error.extensions?.code;
      this.#codes.add(typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR');
    }
  }

  #end(): void {
    if (this.#errorCount > 0) {
      const codes = [...this.#codes].join(',');
      this.span.setAttributes({ [GRAPHQL_ATTRIBUTES.errorCount]: this.#errorCount, [GRAPHQL_ATTRIBUTES.errorCodes]: codes });
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: codes });
    }
    this.span.end();
  }
}

/** Each request's operation, by the Fetch request Yoga (or graphql-ws, ws.ts) made for it. */
const operations = new WeakMap<Request, OperationTrace>();
/** The execute span of each operation, ended with the operation's last part. */
const executions = new WeakMap<OperationTrace, (result: FinalResult) => void>();
/** Releases an HTTP operation's span once its answer is processed. */
const responses = new WeakMap<OperationTrace, () => void>();

const requestOf = (graphqlContext: unknown): Request | undefined => (graphqlContext as { request?: Request } | undefined)?.request;

/** The trace id of the operation `request` carries, when tracing is on (logs and errors name it). */
export function traceIdOf(request: Request | undefined): string | undefined {
  return request ? operations.get(request)?.traceId : undefined;
}

/**
 * The Yoga plugin (tracing on only: off, it is not in the plugin list at all). `requestIdOf` names
 * the request as its x-request-id does.
 */
export function useTracing(tracer: Tracer, requestIdOf: (request: Request) => string | undefined): Plugin {
  /** An operation over HTTP starts with Yoga's operation phase; over graphql-ws, with its execution. */
  const operationOf = (request: Request): OperationTrace => {
    let operation = operations.get(request);
    if (!operation) operations.set(request, (operation = new OperationTrace(tracer, request, requestIdOf(request))));
    return operation;
  };
  return {
    instrumentation: {
      operation: ({ request }, wrapped) => {
        const operation = operationOf(request);
        responses.set(operation, operation.hold());
        return settle(() => context.with(operation.context, wrapped), operation.hold());
      },
      parse: ({ context: graphqlContext }, wrapped) => phase(tracer, 'graphql.parse', requestOf(graphqlContext), wrapped),
      validate: ({ context: graphqlContext }, wrapped) => phase(tracer, 'graphql.validate', requestOf(graphqlContext), wrapped),
      execute: ({ context: graphqlContext }, wrapped) => {
        const request = requestOf(graphqlContext);
        if (!request) return wrapped();
        const operation = operationOf(request);
        const span = tracer.startSpan('graphql.execute', { kind: SpanKind.INTERNAL }, operation.context);
        const done = once(endExecution(span, operation, operation.hold()));
        executions.set(operation, done);
        return settle(
          () => context.with(trace.setSpan(operation.context, span), wrapped),
          (error) => error !== undefined && done({ errors: [asGraphQLError(error)] }),
        );
      },
      subscribe: ({ context: graphqlContext }, wrapped) => {
        const request = requestOf(graphqlContext);
        if (!request) return wrapped();
        const operation = operationOf(request);
        const release = operation.hold();
        // The subscription's setup; its events come later, each in whatever trace delivered it.
        return phase(tracer, 'graphql.subscribe', request, wrapped, release);
      },
    },
    onParse:
      ({ context: graphqlContext }) =>
      ({ result }) => {
        const operation = operations.get(requestOf(graphqlContext)!);
        if (!operation) return;
        if (result instanceof Error) return failed(trace.getActiveSpan(), [result]);
        const params = (graphqlContext as { params?: { operationName?: string | null } }).params;
        nameFrom(operation, result as DocumentNode, params?.operationName);
      },
    onValidate:
      ({ context: graphqlContext }) =>
      ({ result }) => {
        if (result.length > 0 && operations.has(requestOf(graphqlContext)!)) failed(trace.getActiveSpan(), result);
      },
    onExecute: ({ args }) => {
      const operation = operations.get(requestOf(args.contextValue)!);
      if (!operation) return;
      nameFrom(operation, args.document, args.operationName);
      return { onExecuteDone: whenExecuted((result) => executions.get(operation)?.(result)) };
    },
    onSubscribe: ({ args }) => {
      const operation = operations.get(requestOf(args.contextValue)!);
      if (operation) nameFrom(operation, args.document, args.operationName);
    },
    onResultProcess: ({ request, result, setResult }) => {
      const operation = operations.get(request);
      if (!operation) return;
      setResult(stamped(operation, result));
      responses.get(operation)?.();
    },
  };
}

/** A phase's span around `wrapped`, the current span for all it does; `after` once it has settled. */
function phase<T>(tracer: Tracer, name: string, request: Request | undefined, wrapped: () => T, after?: () => void): T {
  const operation = request && operations.get(request);
  if (!operation) return wrapped();
  const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL }, operation.context);
  return settle(
    () => context.with(trace.setSpan(operation.context, span), wrapped),
    (error) => {
      if (error !== undefined) failed(span, [asGraphQLError(error)]);
      span.end();
      after?.();
    },
  );
}

/** Ends the execute span with the result's errors, then lets the operation end. */
function endExecution(span: Span, operation: OperationTrace, release: () => void) {
  return (result: FinalResult) => {
    if (result.errors?.length) failed(span, result.errors);
    span.end();
    release();
  };
}

/** A phase's errors on its span (the operation's are counted as the caller gets them, in withTraceId). */
function failed(span: Span | undefined, errors: readonly { message: string }[]): void {
  span?.setAttribute(GRAPHQL_ATTRIBUTES.errorCount, errors.length);
  span?.setStatus({
    code: SpanStatusCode.ERROR,
    message: errors
      .map((error) => error.message)
      .join('; ')
      .slice(0, 500),
  });
}

function nameFrom(operation: OperationTrace, document: DocumentNode, operationName: string | null | undefined): void {
  if (!getOperationAST(document, operationName)) return;
  const { name, type } = describeOperation(document, operationName);
  operation.named(name, type);
}

/** Runs `wrapped` and calls `done` once it has settled, at once or later, passing on its outcome. */
function settle<T>(wrapped: () => T, done: (error?: unknown) => void): T {
  let result: T;
  try {
    result = wrapped();
  } catch (error) {
    done(error);
    throw error;
  }
  if (!isPromise(result)) {
    done();
    return result;
  }
  return result.then(
    (value) => (done(), value),
    (error: unknown) => {
      done(error ?? new Error('rejected'));
      throw error;
    },
  ) as T;
}

function once<A>(fn: (arg: A) => void): (arg: A) => void {
  let called = false;
  return (arg) => {
    if (called) return;
    called = true;
    fn(arg);
  };
}

const asGraphQLError = (error: unknown): GraphQLError =>
  error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error));

type ResultLike = { errors?: readonly unknown[]; incremental?: readonly { errors?: readonly unknown[] }[] };

/**
 * The result of the operation `request` carries with `extensions.traceId` on each of its errors, so
 * a caller can quote the trace to an operator, and their codes counted on the operation's span: one
 * result, a batch, or the parts of an incremental or subscription answer. Unchanged without tracing.
 */
export function withTraceId<R>(request: Request | undefined, result: R): R {
  const operation = request && operations.get(request);
  return operation ? stamped(operation, result) : result;
}

function stamped<R>(operation: OperationTrace, result: R): R {
  if (Array.isArray(result)) return result.map((item) => stamp(operation, item as ResultLike)) as R;
  if (isAsyncIterable(result)) return mapAsyncIterator(result, (part) => stamp(operation, part as ResultLike)) as R;
  return stamp(operation, result as ResultLike) as R;
}

function stamp<R extends ResultLike>(operation: OperationTrace, result: R): R {
  if (!result?.errors?.length && !result?.incremental?.some((entry) => entry.errors?.length)) return result;
  const errors = [...(result.errors ?? []), ...(result.incremental ?? []).flatMap((entry) => entry.errors ?? [])];
  operation.failed(errors as { extensions?: Record<string, unknown> }[]);
  const { traceId } = operation;
  return {
    ...result,
    ...(result.errors ? { errors: result.errors.map((error) => withExtension(error, traceId)) } : {}),
    ...(result.incremental
      ? {
          incremental: result.incremental.map((entry) =>
            entry.errors ? { ...entry, errors: entry.errors.map((error) => withExtension(error, traceId)) } : entry,
          ),
        }
      : {}),
  };
}

function withExtension(error: unknown, traceId: string): unknown {
  if (!(error instanceof GraphQLError))
    return { ...(error as object), extensions: { ...(error as { extensions?: object }).extensions, traceId } };
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, traceId },
  });
}

/**
 * A loader's batch function as an OpenTelemetry span, `dataloader.batch <name>`, the child of the
 * span current when the batch was dispatched (the operation's execute) and the parent of the bank
 * calls it makes. @opentelemetry/instrumentation-dataloader would patch the dataloader module
 * through import hooks, which need a loader flag at start under ESM; a wrapper where the loaders
 * are defined also names each batch by the record it loads. Without a tracer in the context
 * (tracing off) the batch runs as it is.
 */
export function tracedBatch<Load extends (keys: never[], context: GatewayContext) => Promise<unknown>>(name: string, load: Load): Load {
  const traced = (keys: never[], graphqlContext: GatewayContext) => {
    const { tracer } = graphqlContext;
    if (!tracer) return load(keys, graphqlContext);
    const attributes = { 'dataloader.name': name, 'dataloader.batch.size': keys.length };
    return tracer.startActiveSpan(`dataloader.batch ${name}`, { kind: SpanKind.INTERNAL, attributes }, (span) =>
      settle(
        () => load(keys, graphqlContext),
        (error) => {
          if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
          span.end();
        },
      ),
    );
  };
  // The same signature as `load`: Pothos reads the record's type from it.
  return traced as Load;
}
