import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabelledHistogram, type LabelNames } from './labelled-metrics.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Every bound exactly, just either side of it, 0, negative, tiny, huge, and sums whose float rounding depends on their order. */
const VALUES = [
  ...BUCKETS.flatMap((bound) => [bound, bound - 1e-12, bound + 1e-12]),
  0,
  -0,
  -1,
  1e-9,
  31,
  1e6,
  1e300,
  0.1,
  0.2,
  0.3,
  0.7,
  1 / 3,
];

/** A prom-client Histogram and a LabelledHistogram of the same name, help, labels and buckets, each on its own registry. */
function pair<const Names extends LabelNames>(
  labelNames: Names,
  { name = 'gateway_test_seconds', help = 'A test: with "quotes", a \\ backslash\nand a new line.' } = {},
) {
  const reference = { registry: new Registry() };
  const labelled = { registry: new Registry() };
  const histogram = new Histogram({ name, help, labelNames, buckets: BUCKETS, registers: [reference.registry] });
  const fast = new LabelledHistogram({ name, help, labelNames, buckets: BUCKETS, registry: labelled.registry });
  /** Observes `value` under `values` on both. */
  const observe = (values: string[], value: number) => {
    histogram.observe(Object.fromEntries(labelNames.map((label, i) => [label, values[i]!])), value);
    (fast.series as (...values: string[]) => ReturnType<typeof fast.series>)(...values).observe(value);
  };
  return { reference: reference.registry, labelled: labelled.registry, histogram, fast, observe };
}

/** `count` label combinations of `width` values, some sharing values at different positions, interleaved over VALUES. */
function feed(observe: (values: string[], value: number) => void, width: number, count = 30) {
  const combinations = Array.from({ length: count }, (_, i) =>
    Array.from({ length: width }, (_, position) => `v${(i * (position + 1)) % 7}`),
  );
  VALUES.forEach((value, i) => {
    for (let step = 0; step < 3; step++) observe(combinations[(i * 7 + step * 11) % count]!, value);
  });
}

function catching(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function expectSameOutput(reference: Registry, labelled: Registry) {
  expect(await labelled.metrics()).toBe(await reference.metrics());
  expect(await labelled.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
}

describe('LabelledHistogram', () => {
  it.each([
    ['one label', ['host'] as const],
    ['two labels', ['endpoint', 'family'] as const],
    ['three labels', ['endpoint', 'family', 'status'] as const],
  ])('gives /metrics byte for byte what prom-client’s Histogram gives for the same observations: %s', async (_, labelNames) => {
    const { reference, labelled, observe } = pair(labelNames);
    feed(observe, labelNames.length);
    await expectSameOutput(reference, labelled);
  });

  it('writes a histogram never observed as prom-client does: its HELP and TYPE alone', async () => {
    const { reference, labelled } = pair(['host']);
    expect(await labelled.metrics()).toBe(await reference.metrics());
  });

  it('escapes label values as prom-client does, and keeps values that differ only by position apart', async () => {
    const { reference, labelled, observe } = pair(['a', 'b']);
    for (const values of [
      ['x"y', 'back\\slash'],
      ['new\nline', ''],
      ['a', 'b'],
      ['b', 'a'],
      ['a:b,', 'c'],
      ['a', 'b:c,'],
    ])
      observe(values, 0.3);
    await expectSameOutput(reference, labelled);
  });

  it('gives the same get() as prom-client’s Histogram', async () => {
    const { histogram, fast, observe } = pair(['endpoint', 'family', 'status']);
    feed(observe, 3, 5);
    expect(await fast.get()).toEqual(await histogram.get());
  });

  it('forgets its series at registry.resetMetrics(), then lists them in the order they come back, as prom-client does', async () => {
    const { reference, labelled, observe } = pair(['endpoint', 'status']);
    feed(observe, 2);
    reference.resetMetrics();
    labelled.resetMetrics();
    expect(await labelled.metrics()).toBe(await reference.metrics());
    observe(['late', '500'], 2);
    feed(observe, 2, 9);
    await expectSameOutput(reference, labelled);
  });

  it('refuses a value that is not a finite number with prom-client’s error, counting nothing and listing no series for it', async () => {
    const { histogram, fast, reference, labelled, observe } = pair(['host']);
    observe(['first'], 1);
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      for (const host of ['first', 'refused']) {
        const theirs = catching(() => histogram.observe({ host }, value));
        expect(theirs).toBeInstanceOf(TypeError);
        expect(() => fast.series(host).observe(value)).toThrow(theirs);
      }
    }
    expect(await labelled.metrics()).toBe(await reference.metrics());
    observe(['second'], 1);
    observe(['refused'], 1);
    expect(await labelled.metrics()).toBe(await reference.metrics());
  });

  it('is refused by the registry beside another metric of its name, as prom-client’s own are', () => {
    const registry = new Registry();
    new Histogram({ name: 'gateway_twice_seconds', help: 'x', registers: [registry] });
    expect(
      () => new LabelledHistogram({ name: 'gateway_twice_seconds', help: 'x', labelNames: ['host'], buckets: BUCKETS, registry }),
    ).toThrow(/already been registered/);
  });

  it('takes one to three label names, not "le", and increasing buckets', () => {
    const make =
      (labelNames: readonly string[], buckets = BUCKETS) =>
      () =>
        new LabelledHistogram({
          name: 'gateway_x_seconds',
          help: 'x',
          labelNames: labelNames as unknown as LabelNames,
          buckets,
          registry: new Registry(),
        });
    expect(make([])).toThrow();
    expect(make(['a', 'b', 'c', 'd'])).toThrow();
    expect(make(['le'])).toThrow();
    expect(make(['a'], [1, 1])).toThrow();
    expect(make(['a'], [2, 1])).toThrow();
  });
});
