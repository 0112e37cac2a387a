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
