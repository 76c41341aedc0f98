import { format } from 'node:util';
import type { Metric, Registry } from 'prom-client';

/**
 * Histograms observed on every GraphQL operation and every call to the bank, at a fraction of
 * prom-client's cost, with the same /metrics text.
 *
 * Why not prom-client's Histogram.observe(labels, value): on each observation it makes a closure
 * and a {labels, value} object, checks the label names, joins and looks up a hash string of the
 * labels, and finds the bucket by a property test; a kept `labels(...)` handle still does all but
 * the closure, and cannot add counts gathered elsewhere. With every bank call observed twice, that
 * showed in a dashboard's CPU (docs/architecture.md, "Measured costs"). Here a series is found
 * through one Map per label (the values are strings the caller holds: nothing is allocated) and
 * counts into a Float64Array.
 *
 * prom-client's Registry still writes /metrics: this metric answers what it reads of one (`name`,
 * `help`, `type`, `aggregator`, `getForPromString()`, `get()`, `reset()`) as prom-client's
 * Histogram would for the same observations (platform/labelled-metrics.test.ts holds the two byte
 * for byte).
 */

/** One string per label name, in the order of the names. */
export type LabelValuesOf<Names extends readonly string[]> = { [K in keyof Names]: string };

/** One to three label names: the call sites that need this speed have no more. */
export type LabelNames = readonly [string] | readonly [string, string] | readonly [string, string, string];

/** What prom-client's Histogram takes, less what these metrics do without (exemplars, several registries). */
export interface LabelledHistogramOptions<Names extends LabelNames> {
  /** The metric's name on /metrics. */
  name: string;
  /** Its HELP line. */
  help: string;
  /** /metrics writes them in this order. */
  labelNames: Names;
  /** The upper bounds of the buckets, increasing. */
  buckets: readonly number[];
  /** The registry it is registered on, as prom-client's `registers: [registry]`. */
  registry: Registry;
}

/** A value of a metric as prom-client's Histogram hands it to its Registry: one line of /metrics. */
interface HistogramLine {
  labels: Record<string, string | number>;
  sharedLabels: Readonly<Record<string, string>>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/** A histogram labelled by a few strings: `series(...labelValues).observe(value)`. */
export class LabelledHistogram<const Names extends LabelNames> {
  readonly type = 'histogram';
  /** How prom-client's AggregatorRegistry merges the workers of a cluster: as for its Histogram. */
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  readonly labelNames: Names;
  readonly #bounds: readonly number[];
  /** The series by their label values, one level of Maps per label name; the last level holds the series. */
  #tree = new Map<string, unknown>();
  /** The series observed since the last reset, in the order of their first observation: prom-client's order. */
  #series: HistogramSeries[] = [];

  constructor({ name, help, labelNames, buckets, registry }: LabelledHistogramOptions<Names>) {
    if (labelNames.length < 1 || labelNames.length > 3 || labelNames.includes('le'))
      throw new Error(`${name}: a labelled histogram takes one to three label names, not "le"`);
    if (buckets.some((bound, i) => i > 0 && bound <= buckets[i - 1]!)) throw new Error(`${name}: buckets must increase`);
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.#bounds = Object.freeze([...buckets]);
    // Not one of prom-client's own classes (its type names only those), but its Registry reads no more than this class has: see above.
    registry.registerMetric(this as unknown as Metric);
  }

  /**
   * The series of these label values (one per label name, in their order), made at its first use.
   * Look it up at each observation rather than keeping it: a reset forgets it.
   */
  series(...values: LabelValuesOf<Names> & [string, string?, string?]): HistogramSeries;
  // Three parameters rather than a rest array, which allocates an array on every call.
  series(first: string, second?: string, third?: string): HistogramSeries {
    const depth = this.labelNames.length;
    let level = this.#tree;
    if (depth > 1) level = childOf(level, first);
    if (depth > 2) level = childOf(level, second!);
    const last = depth === 1 ? first : depth === 2 ? second! : third!;
    return (level.get(last) as HistogramSeries | undefined) ?? this.#add(level, last, [first, second!, third!]);
  }

  #add(level: Map<string, unknown>, last: string, values: readonly string[]): HistogramSeries {
    const labels = Object.freeze(Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!])));
    const series = new HistogramSeries(labels, this.#bounds, this.#series);
    level.set(last, series);
    return series;
  }

  /** Forgets every series, as prom-client's Histogram.reset does (registry.resetMetrics). */
  reset(): void {
    this.#tree = new Map();
    this.#series = [];
  }

  /** What the Registry writes to /metrics: the lines of prom-client's Histogram.getForPromString, in its order. */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: HistogramLine[]; aggregator: 'sum' }> {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values: this.#series.flatMap((series) => series.lines(this.name)),
      aggregator: this.aggregator,
    };
  }

  /** The values as prom-client's Histogram.get gives them: each line's own labels with its series' labels. */
  async get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: Omit<HistogramLine, 'sharedLabels'>[];
    aggregator: 'sum';
  }> {
    const metric = await this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ sharedLabels, labels, ...line }) => ({ ...line, labels: Object.assign(labels, sharedLabels) })),
    };
  }
}

/** One combination of label values: its observations, counted as prom-client's Histogram counts them. */
export class HistogramSeries {
  /** Observations per bucket, not cumulative; the last slot holds those above every bound (only in the count). */
  readonly #counts: Float64Array;
  #sum = 0;
  #count = 0;
  /** The label values by name, one object for the series' life (the Registry caches its text by it). */
  readonly #labels: Readonly<Record<string, string>>;
  /** The upper bounds of the buckets, shared by the histogram's series. */
  readonly #bounds: readonly number[];
  /** Where the series joins its histogram's output at its first counted value, as prom-client adds it then (not at a refused one). */
  readonly #observed: HistogramSeries[];

  constructor(labels: Readonly<Record<string, string>>, bounds: readonly number[], observed: HistogramSeries[]) {
    this.#labels = labels;
    this.#bounds = bounds;
    this.#observed = observed;
    this.#counts = new Float64Array(bounds.length + 1);
  }

  /** Counts `value` in the first bucket whose bound is at least it; like prom-client, throws on a value that is not a finite number. */
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${format(value)}`);
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
    if (this.#count === 0) this.#observed.push(this);
    this.#counts[bucket]!++;
    this.#sum += value;
    this.#count += 1;
  }

  /** This series' lines of /metrics: the buckets (cumulative), +Inf, _sum and _count, shaped as prom-client's Histogram shapes them. */
  lines(name: string): HistogramLine[] {
    const line = (suffix: string, labels: HistogramLine['labels'], value: number, exemplar: null | undefined): HistogramLine => ({
      labels,
      sharedLabels: this.#labels,
      value,
      metricName: `${name}${suffix}`,
      exemplar,
    });
    let cumulative = 0;
    const buckets = this.#bounds.map((bound, i) => line('_bucket', { le: bound }, (cumulative += this.#counts[i]!), null));
    return [
      ...buckets,
      line('_bucket', { le: '+Inf' }, this.#count, null),
      line('_sum', {}, this.#sum, undefined),
      line('_count', {}, this.#count, undefined),
    ];
  }
}

/** The next level of the tree of series under `value`, made at its first use. */
function childOf(level: Map<string, unknown>, value: string): Map<string, unknown> {
  let next = level.get(value) as Map<string, unknown> | undefined;
  if (!next) level.set(value, (next = new Map()));
  return next;
}
