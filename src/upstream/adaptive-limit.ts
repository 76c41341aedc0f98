import type { ConcurrencyConfig } from '../settings/index.ts';

/**
 * How many calls the gateway lets be in flight to one bank host, learnt from the bank's answers.
 * The documents say nothing of the bank's limits ("Rate limits: not shown"), so a fixed number is a
 * guess either way: too low wastes the bank's capacity, too high earns 429s.
 *
 * AIMD steered by latency, after TCP's slow start and Netflix concurrency-limits' Vegas and
 * Gradient2 limits (no well-kept Node library implements them), with RFC 7661's validation: an
 * unused limit is no evidence of capacity. The rules and their figures: docs/operations.md, "Calls
 * in flight to the bank". Latency is judged per endpoint, since a list may be slower than a read by
 * id with nobody overloaded, and smoothed, so one slow answer (a GC pause) does not move the limit;
 * a cut comes at most once per round trip, since answers to calls sent before it say nothing of it.
 *
 * Pure: samples carry their own times, so tests drive it without a clock.
 */
/** The settings' own shape (UPSTREAM_*_CONCURRENCY): where the limit starts, its bounds, whether it learns. */
export type AdaptiveLimitOptions = Omit<ConcurrencyConfig, 'perClient' | 'sharePercent'>;

/** What one attempt's answer says about the bank's load. */
export type LimitSignal =
  /** An answer under 500 (or a 500 that is the bank's own bug): its time is a latency sample. */
  | 'answer'
  /** 429, 503 or an attempt timeout: the bank is past its capacity. */
  | 'overload'
  /** Says nothing of load: a network failure, a call cut by its operation's deadline. */
  | 'none';

export interface LimitSample {
  signal: LimitSignal;
  endpoint: string;
  /** When the attempt was sent and when it ended, in ms of one monotonic clock (performance.now()). */
  sentAt: number;
  endedAt: number;
  /** 0 when a slot was free; when the call had to wait, the calls in flight and waiting then (itself included). */
  demand: number;
  /** Calls in flight to the host once this one was sent, itself included. */
  inFlight: number;
}

/**
 * Latency within this multiple of its floor is "at the floor": the bank has room. Generous, because
 * the time measured includes the gateway's own event loop, which a busy gateway delays.
 */
const AT_FLOOR = 2;
/** Smoothed latency past this multiple of its floor is congestion. */
const CLIMBED = 3;
/** An answer's weight in the smoothed latency ratio. */
const SMOOTHING = 0.2;
const OVERLOAD_BACKOFF = 0.5;
const LATENCY_BACKOFF = 0.9;
/** The most one answer may raise the limit towards the demand a waiting call met. */
const DEMAND_JUMP = 1.25;
/** How long after the bank pushed back the limit grows only step by step. */
const PUSHBACK_MEMORY_MS = 10_000;
/** How often an unused limit comes down to what was used (#validate). */
const VALIDATION_WINDOW_MS = 1_000;
/** The least latency floor judged against: under it, a few milliseconds of jitter are not congestion. */
const FLOOR_AT_LEAST_MS = 5;
/** Cuts at the least limit that bring no answer back to the floor before the floor is taken to have moved. */
const CUTS_BEFORE_NEW_FLOOR = 3;
/** The latency floor is the least time seen over one or two of these windows, so it follows a bank that got slower for good. */
const FLOOR_WINDOW_MS = 10_000;

/** An endpoint's least answer time over the current window and the one before it. */
interface Floor {
  windowStart: number;
  current: number;
  previous: number;
}

export class AdaptiveLimit {
  readonly #options: AdaptiveLimitOptions;
  #limit: number;
  #slowStart = true;
  #ratio = 1;
  /** When the bank last pushed back (429, 503, timeout). */
  #lastOverloadAt = Number.NEGATIVE_INFINITY;
  /** The current validation window: when it began, and the most calls in flight seen in it. */
  #windowStart = Number.NEGATIVE_INFINITY;
  #windowPeak = 0;
  /** Latency cuts in a row with no answer back at the floor in between. */
  #cutsWithoutRelief = 0;
  /** Answers to attempts sent before this time cannot lower the limit again. */
  #lastDecreaseAt = Number.NEGATIVE_INFINITY;
  readonly #floors = new Map<string, Floor>();

  constructor(options: AdaptiveLimitOptions) {
    const { min, max, initial } = options;
    if (!(Number.isInteger(min) && min >= 1 && Number.isInteger(max) && max >= min)) {
      throw new RangeError(`the concurrency limit needs whole numbers with 1 <= min <= max, got min ${min}, max ${max}`);
    }
    this.#options = options;
    this.#limit = Math.min(max, Math.max(min, initial));
  }

  /** The calls that may be in flight now. */
  get value(): number {
    return Math.floor(this.#limit);
  }

  /** Learns from one attempt; returns whether the limit changed. */
  record(sample: LimitSample): boolean {
    if (!this.#options.adaptive) return false;
    const before = this.value;
    this.#validate(sample);
    if (sample.signal === 'overload') {
      this.#lastOverloadAt = sample.endedAt;
      this.#decrease(sample, OVERLOAD_BACKOFF);
    } else if (sample.signal === 'answer') this.#learnLatency(sample);
    return this.value !== before;
  }

  /**
   * A limit learnt above the initial one is kept only while it is used (after TCP's congestion
   * window validation, RFC 7661): once a second, if the most calls in flight stayed under the
   * limit, the limit comes down to that most (never below the initial limit). A limit nobody used
   * is no evidence the bank can take it, and a burst after a quiet spell should not find it.
   */
  #validate(sample: LimitSample): void {
    this.#windowPeak = Math.max(this.#windowPeak, sample.inFlight);
    if (sample.endedAt - this.#windowStart < VALIDATION_WINDOW_MS) return;
    const { initial } = this.#options;
    if (this.#limit > initial && this.#windowPeak < this.#limit) this.#limit = Math.max(initial, this.#windowPeak);
    this.#windowStart = sample.endedAt;
    this.#windowPeak = 0;
  }

  #learnLatency(sample: LimitSample): void {
    const ms = Math.max(sample.endedAt - sample.sentAt, 0.001);
    const floor = this.#floor(sample.endpoint, ms, sample.endedAt);
    // Against a bank that answers in a millisecond, jitter alone would double the time: such floors count as FLOOR_AT_LEAST_MS.
    const ratio = ms / Math.max(floor, FLOOR_AT_LEAST_MS);
    // An answer to a call sent before the last cut tells of the load before it: it teaches the floor only.
    if (sample.sentAt < this.#lastDecreaseAt) return;
    this.#ratio += SMOOTHING * (ratio - this.#ratio);
    if (ratio <= AT_FLOOR) this.#cutsWithoutRelief = 0;
    // The further latency has climbed, the deeper the cut (as Gradient limits do), between 10 % and half.
    if (this.#ratio > CLIMBED) this.#latencyCut(sample, ratio);
    else if (ratio <= AT_FLOOR && this.#ratio <= AT_FLOOR && sample.demand > 0) this.#increase(sample);
  }

  /** The smoothed latency says the bank is congested; this answer's own latency says how deep to cut. */
  #latencyCut(sample: LimitSample, ratio: number): void {
    const atMin = this.value <= this.#options.min;
    if (!this.#decrease(sample, Math.max(OVERLOAD_BACKOFF, Math.min(LATENCY_BACKOFF, CLIMBED / ratio))) || !atMin) return;
    this.#cutsWithoutRelief += 1;
    if (this.#cutsWithoutRelief < CUTS_BEFORE_NEW_FLOOR) return;
    // Even the least number of calls does not bring latency down: this is the bank's new normal, not
    // load of ours. Learn the floors again, and the capacity at them from a slow start.
    this.#floors.clear();
    this.#slowStart = true;
    this.#cutsWithoutRelief = 0;
  }

  /**
   * The step, or at once what the waiting call met (up to a quarter more), so a fan-out a little
   * wider than the limit finds room; not that jump while the bank's pushback is recent.
   */
  #increase(sample: LimitSample): void {
    const step = this.#limit + (this.#slowStart ? 1 : 1 / Math.sqrt(this.#limit));
    const pushedBack = sample.sentAt - this.#lastOverloadAt < PUSHBACK_MEMORY_MS;
    const jump = pushedBack ? 0 : Math.min(sample.demand, this.#limit * DEMAND_JUMP);
    this.#limit = Math.min(this.#options.max, Math.max(step, jump));
  }

  /** Whether it cut the limit (not when a cut for the same round trip was made already). */
  #decrease(sample: LimitSample, factor: number): boolean {
    if (sample.sentAt < this.#lastDecreaseAt) return false;
    this.#lastDecreaseAt = sample.endedAt;
    this.#slowStart = false;
    this.#limit = Math.max(this.#options.min, this.#limit * factor);
    // Congestion seen and answered: the next judgement starts from the floor, not from the spike.
    this.#ratio = 1;
    return true;
  }

  #floor(endpoint: string, ms: number, now: number): number {
    let floor = this.#floors.get(endpoint);
    if (!floor) {
      floor = { windowStart: now, current: ms, previous: ms };
      this.#floors.set(endpoint, floor);
    } else if (now - floor.windowStart >= FLOOR_WINDOW_MS) {
      // An idle endpoint's old window says nothing of now: forget both when two windows have passed.
      floor.previous = now - floor.windowStart >= 2 * FLOOR_WINDOW_MS ? ms : floor.current;
      floor.current = ms;
      floor.windowStart = now;
    } else {
      floor.current = Math.min(floor.current, ms);
    }
    return Math.min(floor.current, floor.previous);
  }
}
