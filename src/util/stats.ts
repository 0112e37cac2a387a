// Summary statistics for reports over seeds: mean, (population) standard deviation, and whether
// two methods' seeds separate.
import { maxOf, minOf } from './fold.js';

export const mean = (xs: number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export const std = (xs: number[]): number => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

/** Whether every value of a is above every value of b, below every one, or the two overlap. */
export const separation = (a: number[], b: number[]): 'above' | 'below' | 'overlap' =>
  minOf(a) > maxOf(b) ? 'above' : maxOf(a) < minOf(b) ? 'below' : 'overlap';
