// The held-out share of a user's own set (`--hold-out N|FRACTION`): which items of a set of n are
// kept from training to measure the evaluation loss. Items are held out evenly through the set,
// never a contiguous end, so that a set stored class by class (an image folder of class folders)
// holds out some of every class: item i is held out when floor((i + 1) h / n) > floor(i h / n),
// for a share h / n (a count h of n items, or the exact decimal a fraction spells), in integer
// arithmetic: 0.1 holds out items 9, 19, 29, ..., one in ten.

/** A held-out share: the fraction num / den of a set, or `count` items of it; as the flag spelled it. */
export type HoldOut =
  | { num: number; den: number; spelled: string }
  | { count: number; spelled: string };

import type { TaskFlag } from './task-spec.js';

/** The share a user's set holds out when no flag says otherwise: one in ten. */
export const DEFAULT_HOLD_OUT = '0.1';

const MAX_DECIMALS = 6;

/** `--hold-out`'s value: a count (an integer >= 1) or a fraction (a decimal strictly between 0 and 1). */
export function parseHoldOut(value: string): HoldOut {
  const v = value.trim();
  if (/^[1-9]\d{0,8}$/.test(v)) return { count: Number(v), spelled: v };
  const m = /^0?\.(\d{1,6})$/.exec(v);
  if (m && /[1-9]/.test(m[1]!)) {
    const digits = m[1]!;
    return { num: Number(digits), den: 10 ** digits.length, spelled: v };
  }
  throw new Error(
    `expected a count of items (an integer, 1 or more) or a fraction between 0 and 1 with at most ${MAX_DECIMALS} decimals (0.1), not '${value}'`,
  );
}

/** The share of a set of `n` that `h` holds out, as a ratio a / b of integers. */
const ratio = (n: number, h: HoldOut): [number, number] =>
  'count' in h ? [h.count, n] : [h.num, h.den];

/**
 * The items of a set of `n` (`what`: "images of photos.safetensors") that `h` holds out, as a
 * test on the item's index; refused in one line when it would hold out none, or leave none to
 * train on.
 */
export function heldOutItems(n: number, h: HoldOut, what: string): (i: number) => boolean {
  const [a, b] = ratio(n, h);
  const k = Math.floor((n * a) / b); // the items held out
  if (k < 1)
    throw new Error(
      `--hold-out ${h.spelled} holds out none of the ${n} ${what}; give a larger fraction or a count`,
    );
  if (k >= n)
    throw new Error(
      `--hold-out ${h.spelled} holds out all ${n} ${what}, leaving none to train on; give fewer`,
    );
  return (i) => Math.floor(((i + 1) * a) / b) > Math.floor((i * a) / b);
}

/**
 * `--hold-out` of a task whose --data is a set of `items` ("images"), its value kept as spelled
 * (a run records it); `when` says when the default applies (" with --data and no --eval-data").
 */
export const holdOutFlag = (items: string, when = ''): TaskFlag => ({
  flags: '--hold-out <n|fraction>',
  description: `${items} of --data held out for evaluation, not trained on: a count, or a fraction spread through the set (default ${DEFAULT_HOLD_OUT}${when})`,
  parse: (v: string) => parseHoldOut(v).spelled,
});

/**
 * The share each of a corpus's valid and test splits holds when no flag says otherwise: text8's
 * 5% (a 90/5/5 split).
 */
export const CORPUS_HOLD_OUT = '0.05';

/**
 * Where a corpus of `n` units (characters, tokens; `what`: "characters of notes.txt") splits:
 * train [0, a), valid [a, b), test [b, n), contiguous as text8's (a window of the held-out text
 * is a run of it), valid and test each the share `holdOut` spells (a count, or floor of the
 * fraction, in integer arithmetic: 0.05 gives text8's floor(0.9 n) and floor(0.95 n)); refused in
 * one line when a held-out split would be empty or no training text would be left.
 */
export function corpusSplit(
  n: number,
  holdOut: string = CORPUS_HOLD_OUT,
  what: string,
): [a: number, b: number] {
  const h = parseHoldOut(holdOut);
  const [a, b] =
    'count' in h
      ? [n - 2 * h.count, n - h.count]
      : [Math.floor((n * (h.den - 2 * h.num)) / h.den), Math.floor((n * (h.den - h.num)) / h.den)];
  if (b - a < 1 || n - b < 1)
    throw new Error(
      `--hold-out ${h.spelled} holds out none of the ${n} ${what}; give a larger fraction or a count`,
    );
  if (a < 1)
    throw new Error(
      `--hold-out ${h.spelled} twice (valid and test) leaves none of the ${n} ${what} to train on; give less`,
    );
  return [a, b];
}
