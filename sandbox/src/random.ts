/**
 * A small seeded PRNG (mulberry32). Demo data and generated ids must be identical on
 * every run and after every reset, which Math.random and crypto cannot give.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  digits(length: number): string;
  hex(length: number): string;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const fromAlphabet = (alphabet: string, length: number): string =>
    Array.from({ length }, () => alphabet[int(0, alphabet.length - 1)]).join('');
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    digits: (length) => fromAlphabet('0123456789', length),
    hex: (length) => fromAlphabet('0123456789abcdef', length),
  };
}
