// Training times (alg:sjd-training): t ~ Unif(0, T) per sample, as i.i.d. uniforms, antithetic
// pairs (t, T - t) or stratified ((i + u_i) / B) T, clipped to [1e-3, T - 1e-3] (docs/design.md §4).
import type { TorchGenerator } from '../torch/index.js';

export type TimeSampling = 'uniform' | 'antithetic' | 'stratified';
export const T_CLIP = 1e-3;

/** B training times in float64. */
export function sampleTimes(
  B: number,
  T: number,
  mode: TimeSampling,
  gen: TorchGenerator,
): Float64Array {
  const u = gen.rand([B], 'float64').data() as Float64Array;
  const t = new Float64Array(B);
  for (let i = 0; i < B; i++) {
    if (mode === 'uniform') t[i] = u[i]! * T;
    else if (mode === 'stratified') t[i] = ((i + u[i]!) / B) * T;
    else if (mode === 'antithetic') t[i] = i % 2 === 0 ? u[i]! * T : T - t[i - 1]!;
    else throw new Error(`unknown time sampling '${mode}' (uniform, antithetic, stratified)`);
  }
  return t.map((x) => Math.min(T - T_CLIP, Math.max(T_CLIP, x)));
}
