// The values of command-line flags read from text, as plain functions: each returns the value or
// throws an Error whose one-line message says what is wrong with it (the command line adds the
// flag's name; docs/design.md §6). A task declares its flags with these (common/task-spec.ts
// TaskFlag), so that a task registered at run time reads its values as the shipped ones do.
import { intIn } from './integer.js';

/** A parser of whole numbers in [min, max] (integer.ts's check and message). */
export const integerIn =
  (min: number, max: number) =>
  (value: string): number =>
    intIn(value, min, max);

/** A parser of finite numbers in [min, max]. */
export const numberIn =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new RangeError(`expected a number in [${min}, ${max}]`);
    return n;
  };

/** A parser of one of `choices`. */
export const oneOf =
  <T extends string>(choices: readonly T[]) =>
  (value: string): T => {
    const found = choices.find((c) => c === value);
    if (found === undefined) throw new Error(`expected one of ${choices.join(', ')}`);
    return found;
  };

/**
 * A parser of a comma-separated list whose every item `check` accepts (items trimmed); a refused
 * item is named after `what` ("expected a comma-separated list of seeds: 'x' is not a seed").
 */
export const listOf =
  (check: (item: string) => unknown, what: string) =>
  (value: string): string[] => {
    const items = value.split(',').map((s) => s.trim());
    for (const s of items) {
      try {
        check(s);
      } catch (e) {
        throw new Error(`${what}: ${(e as Error).message}`);
      }
    }
    return items;
  };

/**
 * `items` when no two have the same key (a list flag naming one thing twice would count it
 * twice); else the first repeated one, named as `noun` says.
 */
export function distinct(
  items: string[],
  key: (item: string) => unknown,
  noun: (item: string) => string,
): string[] {
  const seen = new Map<unknown, string>();
  for (const s of items) {
    const k = key(s);
    const first = seen.get(k);
    if (first !== undefined)
      throw new Error(
        `${noun(s)} is listed twice${first === s ? '' : ` (as '${first}' and '${s}')`}`,
      );
    seen.set(k, s);
  }
  return items;
}

/** The largest seed: seeds are whole numbers from 0 to 2^31 - 1 (a run's, a sampling run's). */
export const MAX_SEED = 2 ** 31 - 1;

/** A seed. */
export const seedValue = integerIn(0, MAX_SEED);

/**
 * A sampling temperature (it divides the classifier's logits): from 1e-3, below which the
 * tempered draws are argmax in all but name, to 100.
 */
export const TEMPERATURE = { min: 1e-3, max: 100 } as const;
export const temperatureValue = numberIn(TEMPERATURE.min, TEMPERATURE.max);

const seedItems = listOf((s) => {
  if (!/^\d+$/.test(s) || Number(s) > MAX_SEED) throw new Error(`'${s}' is not a seed`);
}, 'expected a comma-separated list of seeds');

/** Seeds: whole numbers from 0 to 2^31 - 1, each once, a comma-separated list. */
export const seedList = (value: string): number[] =>
  distinct(seedItems(value), Number, (s) => `seed ${Number(s)}`).map(Number);

/** An NFE budget: every NFE flag takes this range (a budget below a sampler's step is the driver's to refuse). */
export const nfeValue = integerIn(1, 4096);

const nfeItems = listOf(nfeValue, 'expected a comma-separated list of NFE');

/** NFE budgets, a comma-separated list. */
export const nfeList = (value: string): number[] => nfeItems(value).map(Number);
