import type { ContractCheckConfig } from '../settings/index.ts';
import { createThrottledLog, type Logger } from '../platform/logger.ts';
import type { ContractIssue } from './errors.ts';
import type { UpstreamObserver } from './observer.ts';

/** At least one whole check per endpoint in this long while it answers; a field's drift is logged at most once in it. */
export const CONTRACT_CHECK_INTERVAL_MS = 60_000;

/** Field paths kept as label values per endpoint; a payload inventing keys (a record's) cannot grow the series past it. */
const MAX_PATHS_PER_ENDPOINT = 50;
const OTHER_PATHS = '(other fields)';

interface EndpointSampling {
  lastCheckedAt: number;
  /** Shares of a check owed: a check is made each time it reaches 1, so 1 % is every hundredth answer. */
  owed: number;
  paths: Set<string>;
}

/**
 * Whole-payload checks beside the lazy reads (lazy-model.ts). A read parses only the fields the
 * operation asks for, so a field nobody reads could drift unseen: some answers are therefore also
 * parsed whole, today's eager parse, and what that finds is counted
 * (gateway_upstream_contract_violations_total by endpoint and field) and logged once per endpoint
 * and field per minute.
 *
 * - `sample` (the default): the first answer of each endpoint after start, then `samplePercent` of
 *   its answers, and at least one a minute while it answers. What a check finds fails nothing: only
 *   the fields that are read and broken fail, each with UPSTREAM_CONTRACT_ERROR.
 * - `all`: every answer, and a violation anywhere fails the call as the whole parse always did:
 *   every field that reads from that answer fails with UPSTREAM_CONTRACT_ERROR, whether or not the
 *   drifted field was asked for. For tests and the contract suite (the test kit's default), and for
 *   chasing a drift: it costs a whole parse per answer besides the reads.
 * - `off`: no whole checks; a drift shows only on the fields that are read.
 */
export class ContractChecks {
  readonly #config: ContractCheckConfig;
  readonly #observer: UpstreamObserver;
  readonly #log: ReturnType<typeof createThrottledLog>;
  readonly #now: () => number;
  readonly #endpoints = new Map<string, EndpointSampling>();

  constructor(config: ContractCheckConfig, observer: UpstreamObserver, logger: Logger, now: () => number = Date.now) {
    this.#config = config;
    this.#observer = observer;
    this.#now = now;
    this.#log = createThrottledLog(logger, CONTRACT_CHECK_INTERVAL_MS, now);
  }

  /** Whether a violation found by a whole check fails the call (`all`). */
  get failsWhole(): boolean {
    return this.#config.mode === 'all';
  }

  /** Whether this answer of `endpoint` is to be checked whole; counted as checked when it is. */
  wanted(endpoint: string): boolean {
    const { mode } = this.#config;
    if (mode === 'off') return false;
    const sampling = this.#sampling(endpoint);
    const now = this.#now();
    let wanted =
      mode === 'all' || sampling.lastCheckedAt === Number.NEGATIVE_INFINITY || now - sampling.lastCheckedAt >= CONTRACT_CHECK_INTERVAL_MS;
    sampling.owed += this.#config.samplePercent / 100;
    if (sampling.owed >= 1) {
      sampling.owed -= 1;
      wanted = true;
    }
    if (!wanted) return false;
    sampling.lastCheckedAt = now;
    this.#observer.contractCheck?.(endpoint);
    return true;
  }

  /** What a whole check of an answer of `endpoint` found: counted per field, logged once per field per interval. */
  found(endpoint: string, requestId: string, issues: readonly ContractIssue[]): void {
    const sampling = this.#sampling(endpoint);
    for (const issue of issues) {
      const path = this.#label(sampling, collapseIndexes(issue.path));
      this.#observer.contractViolation?.(endpoint, path);
      // With `all` the call fails and its error is logged already, with every issue.
      if (!this.failsWhole) {
        this.#log(
          `${endpoint} ${path}`,
          'warn',
          { endpoint, path, problem: issue.message, requestId },
          `the bank's answers break their contract at ${path}: ${issue.message} (a whole-payload check; only operations that read this field fail)`,
        );
      }
    }
  }

  #sampling(endpoint: string): EndpointSampling {
    let sampling = this.#endpoints.get(endpoint);
    if (!sampling) this.#endpoints.set(endpoint, (sampling = { lastCheckedAt: Number.NEGATIVE_INFINITY, owed: 0, paths: new Set() }));
    return sampling;
  }

  #label(sampling: EndpointSampling, path: string): string {
    if (sampling.paths.has(path)) return path;
    if (sampling.paths.size >= MAX_PATHS_PER_ENDPOINT) return OTHER_PATHS;
    sampling.paths.add(path);
    return path;
  }
}

/** `data[3].items[0].status` → `data[].items[].status`: one series per field, whichever element broke it. */
export function collapseIndexes(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}
