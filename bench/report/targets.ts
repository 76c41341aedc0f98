/**
 * The targets RESULTS.md judges the figures against: the benchmark's own, then performance as shipped
 * (issue 30). Each is held against a floor measured in the same run (issue 57): bare Yoga's own figure
 * where graphql-yoga itself sits above a fixed budget, the bare calls, the bare fan-out.
 */

export const TARGETS = {
  /**
   * The one-call query at concurrency 1: the gateway's p50 over the direct call at most this above
   * bare Yoga's over the same call, same probe (the load level's is SHIPPED_TARGETS.loadedOverheadMs).
   */
  overheadOverBareMs: 0.3,
  /** At the load level: calls in flight against the limit in force, and each screen's p99 against its p50. */
  inFlightOfLimit: 0.9,
  p99OverP50: 3,
  /** Fan-out p99 (POST to the last subscriber's receipt) against the bare WebSocket floor of the same run. */
  fanoutFloorRatio: 2,
  /**
   * Live queries: an event's POST to the last client's push of the new result, p99, at most this times
   * the subscription floor's p99 (one event at a time) plus the p99 of the bank read a push waits for.
   */
  liveQueryFloorRatio: 1.5,
  /** Bank reads of the record a live query reads, per event, however many live queries read it (one instance). */
  liveQueryReadsPerEvent: 1,
  /** @defer on the cards screen: each payload's p50 over its bare floor at most this above bare Yoga's over its own. */
  deferOverBareMs: 1,
  /** Another client's dashboard p50 while one client floods, against its p50 on the idle gateway. */
  fairShareRatio: 1.5,
  /** What authorization adds to one operation at concurrency 1: scope checks, identity, a mutation's audit record. */
  authorizationMs: 0.1,
  /** The webhook intake's answer p99 under the flood, with Redis. */
  intakeAnswerP99Ms: 500,
  /** Pricing the cards screen in bank calls once its estimate is cached, CPU per operation (issue 56). */
  estimateMs: 0.05,
} as const;

export const SHIPPED_TARGETS = {
  /** At concurrency 1: each screen's wall p50 over its bare floor at most this per round of calls above bare Yoga's over its own. */
  perRoundOverBareMs: 0.3,
  /** As shipped, each screen's c=50 throughput against the best heap configuration of the run. */
  throughputOfBest: 0.95,
  /** Peak RSS of the shipped configuration's process at c=50, against bare Yoga's with the same flags (issue 39). */
  rssOfBare: 1.25,
  /** The JS heap right after a full collection mid-load at c=50 (the largest over the screens), against bare Yoga's (issue 57). */
  liveHeapOfBare: 1.3,
  /** CPU per operation at c=50, as shipped, against bare Yoga making the same calls in the same run. */
  cpuOfBare: 1.3,
  /** JS heap bytes allocated per operation at c=50, as shipped, against bare Yoga's. */
  allocatedOfBare: 1.3,
  /**
   * The one-call query's p50 over the direct call at c=50, or, above it, no more than graphql-yoga's
   * own per-request cost measured in the same run (the bare Yoga floor's overhead on the same probe).
   */
  loadedOverheadMs: 5,
} as const;
