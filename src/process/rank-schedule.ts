// CANDI's rank-degradation schedule (app:text8; Pynadath et al. 2025) as a VP noise schedule:
// the continuous noise of an unstuck site is set so that the expected fraction of competing
// anchors that rank above the true one, given y ~ N(alpha(t) E(a), sigma^2(t) I), is
//   r(t) = r_min + (r_max - r_min) t / T.
// Anchors have norm sqrt(d) (docs/design.md §5); at the orthogonal distance sqrt(2d) a competitor
// wins with probability Phi(-alpha sqrt(d) / (sqrt(2) sigma)) (CANDI's one-hot geometry scaled
// by sqrt(d)), so with z(t) = Phi^{-1}(r(t)) < 0
//   SNR(t) = alpha^2 / sigma^2 = 2 z^2 / d,   B(t) = -log alpha^2 = log(1 + d / (2 z^2)),
//   beta(t) = dB/dt = -d z' / (z^3 (1 + d / (2 z^2))),   z' = (r_max - r_min) / (T phi(z)).
// The continuous coordinate is never decisive (r >= r_min): the masked chain commits tokens,
// the Gaussian carries graded evidence. B(0) > 0: alpha(0) < 1. Scalars in float64.
import type NormalCdf from '@stdlib/stats-base-dists-normal-cdf';
import type NormalPdf from '@stdlib/stats-base-dists-normal-pdf';
import type NormalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { embedding, type Tensor, type TorchGenerator, tensor } from '../torch/index.js';
import { lazyRequire } from '../util/lazy-require.js';

const normalCdf = lazyRequire<typeof NormalCdf>('@stdlib/stats-base-dists-normal-cdf');
const normalPdf = lazyRequire<typeof NormalPdf>('@stdlib/stats-base-dists-normal-pdf');
const normalQuantile = lazyRequire<typeof NormalQuantile>(
  '@stdlib/stats-base-dists-normal-quantile',
);

export interface RankVPConfig {
  kind: 'rank';
  rMin: number;
  rMax: number;
  anchorDim: number; // d
  T: number;
}

/** The paper's text8 setting (app:text8). */
export const RANK_TEXT8 = { rMin: 0.05, rMax: 0.4 };

export interface RankDegradation {
  /** r(t), the expected fraction of anchors ranked above the true one */
  rank(t: number): number;
  B(t: number): number;
  /** B elementwise on a float64 tensor, with Phi^{-1}(r) = sqrt(2) erfinv(2r - 1) */
  BTensor(t: Tensor): Tensor;
  beta(t: number): number;
}

export function rankDegradation(c: RankVPConfig): RankDegradation {
  const { rMin, rMax, anchorDim: d, T } = c;
  if (!(rMin > 0 && rMax > rMin && rMax < 0.5 && T > 0 && Number.isInteger(d) && d > 0))
    throw new Error(
      `rank-degradation schedule: need 0 < rMin < rMax < 0.5, T > 0 and an integer anchorDim > 0, got ${JSON.stringify(c)}`,
    );
  const rank = (t: number) => rMin + ((rMax - rMin) * Math.min(Math.max(t, 0), T)) / T;
  const z = (t: number) => normalQuantile()(rank(t), 0, 1);
  return {
    rank,
    B: (t) => Math.log1p(d / (2 * z(t) ** 2)),
    BTensor: (t) => {
      const r = t
        .clamp(0, T)
        .mul((rMax - rMin) / T)
        .add(rMin);
      const z2 = r.mul(2).sub(1).erfinv().square().mul(2); // z^2
      return z2.mul(2).reciprocal().mul(d).log1p();
    },
    beta: (t) => {
      const zt = z(t);
      const dz = (rMax - rMin) / (T * normalPdf()(zt, 0, 1));
      return (-d * dz) / (zt ** 3 * (1 + d / (2 * zt * zt)));
    },
  };
}

/**
 * The noise a VP schedule actually reaches with given anchors E [K, d] at time t, for a true
 * anchor drawn from `weights` [K] (e.g. the corpus' unigram law; uniform when absent):
 * - rank: the expected fraction of competitors b != a that y ~ N(alpha E(a), sigma^2 I) ranks
 *   above a (nearer to alpha E(b)), in closed form, the mean over b != a of
 *   Phi(-alpha D_ab / 2 sigma) with D_ab = ||E(a) - E(b)|| (the schedule's target r(t) assumes
 *   D = sqrt(2d) for every pair);
 * - ownNearest: the fraction of sites whose nearest anchor is still their own, by Monte Carlo
 *   (n draws from gen).
 */
export function achievedRank(
  vp: { alpha(t: number): number; sigma2(t: number): number }, // the VP schedule (vp.ts)
  anchors: Tensor,
  t: number,
  gen: TorchGenerator,
  n = 4096,
  weights?: number[],
): { rank: number; ownNearest: number } {
  const E = anchors.to('float64'); // [K, d]
  const [K, d] = E.shape as [number, number];
  const w = weights ?? new Array<number>(K).fill(1);
  if (w.length !== K || !w.every((x) => x >= 0))
    throw new Error(`achievedRank: ${w.length} weights for ${K} anchors`);
  const total = w.reduce((x, y) => x + y, 0);
  const [alpha, sigma] = [vp.alpha(t), Math.sqrt(vp.sigma2(t))];
  const D = E.unsqueeze(1).sub(E.unsqueeze(0)).square().sum(-1).sqrt().toArray(); // [K * K]
  let rank = 0;
  for (let a = 0; a < K; a++) {
    let above = 0;
    for (let b = 0; b < K; b++)
      if (b !== a) above += normalCdf()(-(alpha * D[a * K + b]!) / (2 * sigma), 0, 1);
    rank += (w[a]! / total) * (above / (K - 1));
  }
  const a = gen.multinomial(tensor(w, [K], 'float64'), n, true); // [n] true anchors
  const y = embedding(E, a)
    .mul(alpha)
    .add(gen.randn([n, d], 'float64').mul(sigma)); // [n, d]
  const dist = y.unsqueeze(1).sub(E.mul(alpha).unsqueeze(0)).square().sum(-1); // [n, K]
  const ownNearest = dist.argmin(-1).eq(a).to('float64').mean().item();
  return { rank, ownNearest };
}
