// The Rao-Blackwellised plug-in (sec:plugin): per-anchor rates Lambda = lambdahat P_theta,
// the commit rate lambda_plug = sum_a Lambda (eq:plugin-estimators) and the allocation
// pi_plug ∝ lambdahat P_theta = softmax(logits + log lambdahat) (eq:plugin-allocation), with a
// temperature on the classifier logits of the allocation. Float64.
import type { Tensor } from '../torch/index.js';

export interface PlugIn {
  /** lambda_plug(y, t) [B, L] */
  rate: Tensor;
  /** pi_plug(a | y, t) [B, L, K] */
  allocation: Tensor;
}

/**
 * logits [B, L, K] of P_theta; logTarget: log lambdahat, [K] (anchor-agnostic closed form) or
 * [B, L, K]. Anchors with log lambdahat = -Infinity can never be reached.
 */
export function plugIn(logits: Tensor, logTarget: Tensor, temperature = 1): PlugIn {
  if (!(temperature > 0)) throw new Error(`temperature must be > 0, got ${temperature}`);
  const l = logits.to('float64');
  const logRates = l.logSoftmax(-1).add(logTarget); // log Lambda [B, L, K]
  const rate = logRates.logsumexp(-1).exp(); // [B, L]
  // A target that is constant over anchors cancels in the allocation; -Infinity everywhere
  // (nothing can commit) would give NaN, so the classifier alone allocates then.
  const finite = logTarget.isfinite().any().item() > 0;
  const alloc = finite ? l.div(temperature).add(logTarget) : l.div(temperature);
  return { rate, allocation: alloc.softmax(-1) };
}
