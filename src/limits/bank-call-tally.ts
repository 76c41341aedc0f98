import { LIST_FIRST_FROM_KEYS, NODE_LOADERS, type LoaderBatching, type NodeTypeName } from './bank-call-prices.ts';

/**
 * An upper bound of the bank calls an operation can make, before it runs: each field's price
 * (bank-call-prices.ts) times how many parent objects it can have (the page sizes above it),
 * loads of one node type priced as their loader batches them, and reads shared by argument values
 * counted once. A subscription's bound is for one event (and its start). Infinity where a list the
 * documents put no bound on holds a field that calls the bank.
 */
export interface BankCallEstimate {
  calls: number;
  /** Every field that costs calls, by response path (`cards.nodes.cardholder`), costliest first. */
  costliest: { path: string; calls: number }[];
}

/** A product that stays 0 when nothing is there, however unbounded the other side. */
export const times = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : a * b);

interface Loads {
  keys: number;
  batches: number;
}

/** What the walk found, summed by path; loads and shared reads are priced once everything is in. */
export class Tally {
  readonly #byPath = new Map<string, number>();
  readonly #loads = new Map<NodeTypeName, Map<string, Loads>>();
  readonly #shared = new Map<string, { path: string; parents: number; variants: number; calls: number }>();

  add(path: string, calls: number): void {
    if (calls > 0) this.#byPath.set(path, (this.#byPath.get(path) ?? 0) + calls);
  }

  /** `keys` loads of `type` at `path`, in at most `batches` loader batches. */
  load(type: NodeTypeName, path: string, keys: number, batches: number): void {
    if (keys === 0) return;
    let byPath = this.#loads.get(type);
    if (!byPath) this.#loads.set(type, (byPath = new Map()));
    const loads = byPath.get(path) ?? { keys: 0, batches: 0 };
    byPath.set(path, { keys: loads.keys + keys, batches: loads.batches + Math.min(batches, keys) });
  }

  /** A read shared by every parent with the same `key`: once per connected account it may act for. */
  share(key: string, path: string, parents: number, variants: number, calls: number): void {
    const shared = this.#shared.get(key) ?? { path, parents: 0, variants, calls };
    this.#shared.set(key, { ...shared, parents: shared.parents + parents });
  }

  estimate(): BankCallEstimate {
    for (const shared of this.#shared.values()) this.add(shared.path, times(Math.min(shared.parents, shared.variants), shared.calls));
    for (const [type, byPath] of this.#loads) this.#addLoads(type, byPath);
    const costliest = [...this.#byPath]
      .map(([path, calls]) => ({ path, calls }))
      .sort((a, b) => b.calls - a.calls || a.path.localeCompare(b.path));
    return { calls: costliest.reduce((sum, entry) => sum + entry.calls, 0), costliest };
  }

  /**
   * Each path's loads priced as if alone; a batch past four keys may gather keys of several paths,
   * so for those loaders the type's whole bound counts, its extra call on the path with the most.
   */
  #addLoads(type: NodeTypeName, byPath: Map<string, Loads>): void {
    const batching = NODE_LOADERS[type].batching;
    const alone = [...byPath].map(([path, loads]) => ({ path, calls: loaderCalls(batching, loads) }));
    const sumAlone = alone.reduce((sum, p) => sum + p.calls, 0);
    const whole = batching === 'a call a key, the list past four' ? loaderCalls(batching, sumLoads([...byPath.values()])) : sumAlone;
    const largest = alone.reduce((a, b) => (b.calls > a.calls ? b : a));
    // Never below the paths' own (and no Infinity - Infinity: an unbounded path is the largest already).
    if (whole - sumAlone > 0) largest.calls += whole - sumAlone;
    for (const { path, calls } of alone) this.add(path, calls);
  }
}

const sumLoads = (all: Loads[]): Loads =>
  all.reduce((a, b) => ({ keys: a.keys + b.keys, batches: a.batches + b.batches }), { keys: 0, batches: 0 });

/**
 * Calls for `keys` loads in at most `batches` batches. Every batch holds a load of some path, and a
 * path's loads fall in at most min(keys, batches) of them: summed over paths, a bound of batches.
 * A batch past four keys costs one call more than a read each, and at most keys/5 batches are.
 */
function loaderCalls(batching: LoaderBatching, { keys, batches }: Loads): number {
  if (batching === 'a call a batch') return Math.min(keys, batches);
  if (batching === 'a call a key') return keys;
  return keys + Math.min(batches, Math.floor(keys / LIST_FIRST_FROM_KEYS));
}
