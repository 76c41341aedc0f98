import type { Tracer } from '@opentelemetry/api';
import { Pool } from 'undici';
import { DEFAULT_CONCURRENCY, type ConcurrencyConfig } from '../settings/index.ts';
import type { Logger } from '../platform/logger.ts';
import { asError } from '../platform/as-error.ts';
import type { Endpoint } from './endpoint.ts';
import { HostLimit } from './host-limit.ts';
import type { RecordCache } from './record-cache.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.ts';
import { createSharedCallState, type SharedCallState } from './shared-call-state.ts';
import { attemptSpanStage } from './stages/attempt-span-stage.ts';
import { authRenewalStage } from './stages/auth-renewal-stage.ts';
import { breakerStage } from './stages/breaker-stage.ts';
import { prepareCall, type CallOptions, type CallTarget, type UpstreamCall } from './stages/call.ts';
import { concurrencyLimitStage } from './stages/concurrency-limit-stage.ts';
import { deadlineStage } from './stages/deadline-stage.ts';
import { composeStages } from './stages/pipeline.ts';
import { rateLimitWaitStage } from './stages/rate-limit-wait-stage.ts';
import { readAnswer } from './stages/read-answer.ts';
import { recordCacheStage } from './stages/record-cache-stage.ts';
import { retryStage } from './stages/retry-stage.ts';
import { send, type Answer, type GatewayIdentity } from './stages/send.ts';
import { writeOutcomeStage } from './stages/write-outcome-stage.ts';

export type { CallOptions, TokenSource } from './stages/call.ts';

export interface BankConnectionOptions extends GatewayIdentity {
  baseUrl: string;
  serviceSegment: string;
  /** Per attempt: connecting, then waiting for the headers, then for each piece of the body. */
  timeoutMs: number;
  logger: Logger;
  retry?: RetryPolicy | undefined;
  /** The adaptive limit on calls in flight; its ceiling is also the most connections the pool opens. */
  concurrency?: ConcurrencyConfig | undefined;
  /** Breakers, Retry-After holds, the retry budget, the observer: what the runtime's calls share, on any connection. */
  callState?: SharedCallState | undefined;
  /** The limit of the bank host, when another connection already calls it (the runtime shares one per host). */
  hostLimit?: HostLimit | undefined;
  /** Kept reads per bank user, dropped by writes and events; none when absent (UPSTREAM_CACHE=off). */
  cache?: RecordCache | undefined;
  /** With it (tracing on), each attempt is a client span and carries its traceparent. */
  tracer?: Tracer | undefined;
}

/**
 * The gateway's connection to the bank at one base address: a pool of HTTP connections, and the
 * path each call takes to it through the stages of stages/.
 */
export class BankConnection {
  readonly #pool: Pool;
  readonly #target: CallTarget;
  readonly #retry: RetryPolicy;
  readonly #pipeline: (call: UpstreamCall) => Promise<unknown>;

  constructor(options: BankConnectionOptions) {
    const url = new URL(options.baseUrl);
    const { logger } = options;
    const retry = options.retry ?? DEFAULT_RETRY_POLICY;
    const callState = options.callState ?? createSharedCallState({ logger, retryBudget: retry.retryBudget });
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    const hostLimit = options.hostLimit ?? new HostLimit(url.host, concurrency, callState.observer);
    this.#retry = retry;
    this.#target = { prefix: url.pathname.replace(/\/+$/, ''), serviceSegment: options.serviceSegment };
    this.#pool = new Pool(url.origin, {
      connections: concurrency.max,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connectTimeout: Math.min(options.timeoutMs, 5_000),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });

    // One attempt: wait out a 429's hold, take a slot in turn under the host's limit, (traced) send.
    const attempt = composeStages<Answer>(
      [
        rateLimitWaitStage(callState, retry.budgetMs),
        concurrencyLimitStage(hostLimit, callState),
        ...(options.tracer ? [attemptSpanStage(options.tracer, url)] : []),
      ],
      send(this.#pool, options, callState, logger),
    );
    // The call, outermost first: the record cache (when on), a write's outcome when its answer is
    // lost, its deadline, the breaker's leave, retries, a token for each attempt, and the attempt's
    // answer read into data (lazily: each field parsed when first read) or a typed error the stages above act on.
    this.#pipeline = composeStages(
      [
        ...(options.cache ? [recordCacheStage(options.cache)] : []),
        writeOutcomeStage(callState.uncertainWrites, logger),
        deadlineStage(callState),
        breakerStage(callState, logger),
        retryStage(retry, callState, logger),
        authRenewalStage(callState),
      ],
      (call) => attempt(call).then((answer) => readAnswer(call, answer, callState, logger)),
    );
  }

  /**
   * Calls one endpoint and returns its `data`, read by the endpoint's model (each field parsed when
   * first read). Not an async function (one promise and frame fewer per call): what prepareCall or
   * a stage throws at once is a rejection all the same.
   */
  call<Data>(ep: Endpoint<Data>, options: CallOptions = {}): Promise<Data> {
    try {
      // readAnswer read it with ep.data, the model that gives Data.
      return this.#pipeline(prepareCall(ep, options, this.#target, this.#retry.maxAttempts)) as Promise<Data>;
    } catch (error) {
      return Promise.reject(asError(error));
    }
  }

  /** Waits for calls in flight, or with `force` aborts them (a stop whose grace period ran out). */
  close(force = false): Promise<void> {
    return force ? this.#pool.destroy() : this.#pool.close();
  }
}
