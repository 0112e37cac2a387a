// Simulation-free corruption, Alg. 1 (alg:sjd-training, ex:vp-matched-training), vectorised
// over a minibatch on the device of x0: per position, stuck with probability S_a(t) (then
// exactly on its anchor); otherwise an unstick time tau ~ lambda S / (1 - S(t)) on (0, t) by
// inverse CDF and y = alpha(t) (W E(x0))_i + sqrt(v_t(tau)) eps (eq:vp-matched-convolution), or
// the mask point for the mask kernel. Conditioned positions (clues) stay committed and leave the
// loss; the never-unstuck branch is the loss mask. Uniform draws, hazards and variances in
// float64 tensors on the model's device: no host round trip; only the B row times travel
// host -> device.
import {
  embedding,
  type Tensor,
  type TorchGenerator,
  tensor,
  where,
  zerosLike,
} from '../torch/index.js';
import type { SJDProcess } from './process.js';
import { VARIANCE_FLOOR } from './process.js';

export interface Corrupted {
  y: Tensor; // [B, L, d] (dtype of the anchors)
  stuck: Tensor; // [B, L] bool: on the anchor (including conditioned positions)
  lossMask: Tensor; // [B, L] bool: unstuck and not conditioned
  tau: Tensor; // [B, L] float64 unstick times (NaN where stuck)
}

/**
 * x0 [B, L] int64, anchors [K, d], t [B] (float64 times), condition [B, L] bool (optional):
 * one draw of X_t ~ p_t(. | x0) per position. `w` [K] float64 replaces the process's hazard
 * weights (a network's learned ones, detached: the draw is not differentiated).
 */
export function corrupt(
  proc: SJDProcess,
  x0: Tensor,
  anchors: Tensor,
  t: Float64Array,
  gen: TorchGenerator,
  condition?: Tensor,
  w?: Tensor,
): Corrupted {
  const [B, L] = x0.shape as [number, number];
  if (t.length !== B) throw new Error(`corrupt: ${t.length} times for a batch of ${B}`);
  const dev = x0.device;
  const h = proc.hazard;
  const row = (f: (tb: number) => number) =>
    tensor(Float64Array.from(t, f), [B, 1], 'float64').to('float64', dev); // [B, 1]
  const u1 = gen.rand([B, L], 'float64', dev);
  const u2 = gen.rand([B, L], 'float64', dev);
  // w(a) Lambda(t) per position: [B, L] float64 (Infinity for t > 0 under the instant hazard)
  const lam = row((tb) => (tb <= 0 ? 0 : h.instant ? Number.POSITIVE_INFINITY : h.cumulative(tb)));
  const K = anchors.size(0);
  const table = w
    ? w.detach().to('float64', dev)
    : proc.config.anchorWeights
      ? tensor(proc.anchorWeights(K), [K], 'float64').to('float64', dev)
      : null; // [K]
  const weights = table ? table.indexSelect(0, x0.flatten()).reshape([B, L]) : null;
  const wLam = weights ? lam.mul(weights) : lam.expand([B, L]);
  let stuckT = u1.lt(wLam.neg().exp()); // u1 < S_a(t)
  const tRow = row((tb) => tb);
  let tau: Tensor;
  if (h.instant) tau = zerosLike(u2);
  else {
    // Lambda(tau) = -log(1 - u (1 - S_a(t))) / w(a), then tau = min(t, Lambda^{-1}(.))
    const c = u2.mul(wLam.neg().expm1()).log1p().neg();
    tau = h.cumulativeInverseTensor(weights ? c.div(weights) : c).minimum(tRow);
  }
  tau = where(stuckT, Number.NaN, tau);
  if (condition) stuckT = stuckT.logicalOr(condition);
  const onAnchor = embedding(anchors, x0); // [B, L, d]
  let unstuck: Tensor;
  if (proc.config.kernel === 'mask') {
    unstuck = zerosLike(onAnchor); // the mask point m (0 is no anchor: anchors have norm sqrt(d))
  } else {
    const eps = gen.randn(onAnchor.shape, anchors.dtype, dev); // [B, L, d]
    const mu = proc.tokenMean(x0, anchors); // [B, L, d] = W E(x0)
    const alpha = row((tb) => proc.vp.alpha(tb)); // [B, 1]
    const std = proc.vp.vTensor(tRow, tau, proc.eta).clamp(VARIANCE_FLOOR).sqrt(); // [B, L]
    const coef = (v: Tensor) => v.unsqueeze(-1).to(anchors.dtype);
    unstuck = mu.mul(coef(alpha)).add(eps.mul(coef(std)));
  }
  const y = where(stuckT.unsqueeze(-1), onAnchor, unstuck);
  const lossMask = stuckT.logicalNot();
  return { y, stuck: stuckT, lossMask, tau };
}
