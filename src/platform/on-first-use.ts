import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used, not when the gateway starts (through require: jose,
 * an ES module, too, as Node 24 requires one). For the packages that only some settings need
 * (ioredis with Redis configured, rate-limiter-flexible with a client rate limit, pino-pretty on a
 * terminal, jose with JWT callers or bank tokens, OpenTelemetry's semantic conventions with tracing
 * on): an instance without them never holds their code and module-level objects (about a megabyte
 * of live heap each: docs/architecture.md, "Measured costs"), and every megabyte of a server's live
 * heap is several of its peak RSS, since V8 lets the heap grow to a multiple of what survived its
 * last full collection. A dynamic import() would do the same but make their synchronous users
 * (connectRedis, createLogger) asynchronous.
 */
export function onFirstUse<Exports>(specifier: string): () => Exports {
  let loaded: Exports | undefined;
  return () => (loaded ??= require(specifier) as Exports);
}

/**
 * OpenTelemetry's attribute names, for the spans of operations (observability/tracing.ts) and of
 * bank calls (upstream/stages/attempt-span-stage.ts): both are made only with tracing on.
 */
export const semanticConventions = onFirstUse<typeof import('@opentelemetry/semantic-conventions')>('@opentelemetry/semantic-conventions');
