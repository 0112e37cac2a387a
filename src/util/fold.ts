// Folds over arrays of any length: the largest and smallest value, and appending one array to
// another. `Math.max(...xs)` and `out.push(...xs)` pass every element as an argument, which
// overflows the call stack past about 100k elements (a trace of 16 images x 64 steps, an
// evaluation of 125k boards); these loop instead. test/no-spread.test.ts keeps src/ free of
// such spreads.

/** The largest of `xs` and `init` (NaN if any is NaN, as Math.max). */
export function maxOf(xs: Iterable<number>, init = Number.NEGATIVE_INFINITY): number {
  let m = init;
  for (const x of xs) m = Math.max(m, x);
  return m;
}

/** The smallest of `xs` and `init` (NaN if any is NaN, as Math.min). */
export function minOf(xs: Iterable<number>, init = Number.POSITIVE_INFINITY): number {
  let m = init;
  for (const x of xs) m = Math.min(m, x);
  return m;
}

/** Appends every item of `items` to `into` (in order) and returns `into`. */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}
