// Integers read from text: the one check (and message) that every integer flag of `sjd` and
// every integer environment variable (SJD_THREADS) share.

/** `value` as an integer in [min, max]; throws a RangeError `expected an integer in [min, max]`. */
export function intIn(value: string, min: number, max: number): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new RangeError(`expected an integer in [${min}, ${max}]`);
  return n;
}
