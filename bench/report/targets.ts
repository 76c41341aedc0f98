/** The targets RESULTS.md judges the figures against: the benchmark's own, then performance as shipped (issue 30). */

export const TARGETS = {
  /** Gateway overhead at p50 over the direct call at concurrency 1 (the load level's is SHIPPED_TARGETS.loadedOverheadMs). */
  overheadP50Ms: { single: 1 },
  /** At the load level: calls in flight against the limit in force, and each screen's p99 against its p50. */
  inFlightOfLimit: 0.9,
  p99OverP50: 3,
  /** Fan-out p99 (POST to the last subscriber's receipt) against the bare WebSocket floor of the same run. */
  fanoutFloorRatio: 2,
  /** Live queries: an event's POST to the last client's push of the new result, p99, against the same floor one event at a time. */
  liveQueryFloorRatio: 2,
  /** Bank reads of the record a live query reads, per event, however many live queries read it (one instance). */
  liveQueryReadsPerEvent: 1,
  /** @defer on the cards screen: each payload at most this over the bare floor of the same calls, per round up to it. */
  deferPerRoundMs: 1,
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
  /** At concurrency 1: wall p50 over the bare floor, per round of upstream calls. */
  perRoundMs: 1,
  /** As shipped, each screen's c=50 throughput against the best heap configuration of the run. */
  throughputOfBest: 0.95,
  /** Peak RSS of the shipped configuration's process at c=50, against bare Yoga's with the same flags (issue 39). */
  rssOfBare: 1.25,
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
