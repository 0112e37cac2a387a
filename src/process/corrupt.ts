// Simulation-free corruption, Alg. 1 (alg:sjd-training, ex:vp-matched-training), vectorised
// over a minibatch: per position, stuck with probability S_a(t) (then exactly on its anchor);
// otherwise an unstick time tau ~ lambda S / (1 - S(t)) on (0, t) by inverse CDF and
// y = alpha(t) (W E(x0))_i + sqrt(v_t(tau)) eps (eq:vp-matched-convolution), or the mask point
// for the mask kernel. Conditioned positions (clues) stay committed and leave the loss; the
// never-unstuck branch is the loss mask. Uniform draws in float64.
import {
  embedding,
  type Generator,
  type Tensor,
  tensor,
  where,
  zerosLike,
} from '../torch/index.js';
import { sampleUnstickTime, survival } from './hazard.js';
import type { SJDProcess } from './process.js';

export interface Corrupted {
  y: Tensor; // [B, L, d] (dtype of the anchors)
  stuck: Tensor; // [B, L] bool: on the anchor (including conditioned positions)
  lossMask: Tensor; // [B, L] bool: unstuck and not conditioned
  tau: Float64Array; // [B * L] unstick times (NaN where stuck)
}

/**
 * x0 [B, L] int64, anchors [K, d], t [B] (float64 times), condition [B, L] bool (optional):
 * one draw of X_t ~ p_t(. | x0) per position.
 */
export function corrupt(
  proc: SJDProcess,
  x0: Tensor,
  anchors: Tensor,
  t: Float64Array,
  gen: Generator,
  condition?: Tensor,
): Corrupted {
  const [B, L] = x0.shape as [number, number];
  if (t.length !== B) throw new Error(`corrupt: ${t.length} times for a batch of ${B}`);
  const K = anchors.size(0);
  const w = proc.anchorWeights(K);
  const tokens = x0.toArray();
  const u1 = gen.rand([B, L], 'float64').dataView() as Float64Array;
  const u2 = gen.rand([B, L], 'float64').dataView() as Float64Array;
  const stuck = new Uint8Array(B * L);
  const tau = new Float64Array(B * L).fill(Number.NaN);
  const alpha = new Float64Array(B * L);
  const std = new Float64Array(B * L);
  for (let b = 0; b < B; b++) {
    const tb = t[b]!;
    const a = proc.vp.alpha(tb);
    for (let i = 0; i < L; i++) {
      const k = b * L + i;
      const wa = w[tokens[k]!]!;
      if (u1[k]! < survival(proc.hazard, tb, wa)) {
        stuck[k] = 1;
        continue;
      }
      tau[k] = sampleUnstickTime(proc.hazard, tb, u2[k]!, wa);
      alpha[k] = a;
      std[k] = Math.sqrt(proc.variance(tb, tau[k]!));
    }
  }
  let stuckT = tensor(stuck, [B, L], 'bool');
  if (condition) stuckT = stuckT.logicalOr(condition);
  const onAnchor = embedding(anchors, x0); // [B, L, d]
  let unstuck: Tensor;
  if (proc.config.kernel === 'mask') {
    unstuck = zerosLike(onAnchor); // the mask point m (0 is no anchor: anchors have norm sqrt(d))
  } else {
    const eps = gen.randn(onAnchor.shape, anchors.dtype); // [B, L, d]
    const mu = proc.tokenMean(x0, anchors); // [B, L, d] = W E(x0)
    const coef = (v: Float64Array) => tensor(v, [B, L, 1], 'float64').to(anchors.dtype);
    unstuck = mu.mul(coef(alpha)).add(eps.mul(coef(std)));
  }
  const y = where(stuckT.unsqueeze(-1), onAnchor, unstuck);
  const lossMask = stuckT.logicalNot();
  return { y, stuck: stuckT, lossMask, tau };
}
