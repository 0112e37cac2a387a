// The classifier-induced score (app:classifier-score):
//   eta = 1, any W:  s_i = -(y_i - alpha(t) (W m)_i) / sigma^2(t),  m_j = sum_a P^(j)(a) E(a)
//                    (eq:blended-score), with m_j = E(a_j) exactly at committed positions;
//   eta < 1, W = I:  s = -sum_a P(a) int w_t(tau | y, a) (y - alpha(t) E(a)) / v_t(tau) dtau
//                    (eq:app-classifier-score), from the quadrature's time posterior.
import { type Tensor, tensor, where } from '../torch/index.js';
import { type SJDProcess, VARIANCE_FLOOR } from './process.js';
import type { MixtureTerms } from './quadrature.js';

/**
 * The posterior mean of the clean mean mu_i (eq:blended-score's W m): exact anchors at committed
 * positions, the classifier's posterior means elsewhere, then one blend (for images the blend
 * of posterior-mean values, embedded: app:cifar10-imagenet). probs [B, L, K], anchors [K, d],
 * committed [B, L] bool, tokens [B, L] int64 -> [B, L, d] as the blend forms it (probs' dtype
 * for token means, the anchors' for embedded values), not converted: a float64 state promotes
 * it where the two meet, without a copy.
 */
export function blendedPosteriorMean(
  proc: SJDProcess,
  probs: Tensor,
  anchors: Tensor,
  committed: Tensor,
  tokens: Tensor,
): Tensor {
  return proc.blendedMean(probs, anchors, { committed, tokens });
}

/**
 * y [B, L, d], probs [B, L, K] (posterior at active positions), anchors [K, d], committed
 * [B, L] bool with tokens [B, L] int64: the score [B, L, d] (0 at committed positions). For
 * eta < 1 pass the mixture terms of the same (y, t) (from the DHM target).
 */
export function classifierScore(
  proc: SJDProcess,
  y: Tensor,
  t: number,
  probs: Tensor,
  anchors: Tensor,
  committed: Tensor,
  tokens: Tensor,
  mixture?: MixtureTerms,
): Tensor {
  const alpha = proc.vp.alpha(t);
  const active = committed.logicalNot().unsqueeze(-1); // [B, L, 1]
  if (proc.closedForm) {
    const mean = blendedPosteriorMean(proc, probs, anchors, committed, tokens); // [B, L, d] = W m
    const s = y.sub(mean.mul(alpha)).div(-Math.max(proc.vp.sigma2(t), VARIANCE_FLOOR));
    return where(active, s, 0);
  }
  if (!mixture)
    throw new Error('classifier score at eta < 1 needs the quadrature terms of the DHM target');
  const vInv = Array.from(mixture.v, (x) => 1 / Math.max(x, VARIANCE_FLOOR));
  // w_t(tau_i | y, a) [B, L, K, N]; an anchor with p^ac = 0 (no hazard yet) gets no weight.
  const soft = mixture.logTerms.softmax(-1);
  const omega = where(soft.isnan(), 0, soft);
  const c = omega.mul(tensor(vInv, [vInv.length], 'float64')).sum(-1); // E[1/v | y, a] [B, L, K]
  const pc = probs.to('float64').mul(c); // [B, L, K]
  const s = pc
    .matmul(anchors.to('float64'))
    .mul(alpha)
    .sub(y.mul(pc.sum(-1, true))); // [B, L, d]
  return where(active, s, 0);
}
