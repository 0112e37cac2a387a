// The Rao-Blackwellised plug-in (sec:plugin): per-anchor rates Lambda = lambdahat P_theta,
// the commit rate lambda_plug = sum_a Lambda (eq:plugin-estimators) and the allocation
// pi_plug ∝ lambdahat P_theta = softmax(logits + log lambdahat) (eq:plugin-allocation), with a
// temperature on the classifier logits of the allocation. Float64. The rate and the
// allocation are separate functions so that a sampler computes the allocation only at the
// sites that commit (sampling/site-draws.ts).
import { full, type Tensor } from '../torch/index.js';

export interface PlugIn {
  /** lambda_plug(y, t) [B, L] */
  rate: Tensor;
  /** pi_plug(a | y, t) [B, L, K] */
  allocation: Tensor;
}

/** The common value of a target [K] that is the same for every anchor, else null. */
function constantTarget(logTarget: Tensor): number | null {
  if (logTarget.shape.length !== 1) return null;
  const v = logTarget.toArray();
  return v.every((x) => x === v[0]) ? v[0]! : null;
}

/**
 * lambda_plug [...] from logits [..., K] of P_theta and log lambdahat [K] or [..., K]. A target
 * the same for every anchor (the closed form with one hazard for all, sec:dhm) gives
 * lambda_plug = lambdahat sum_a P_theta(a) = lambdahat, at every site.
 */
export function plugInRate(logits: Tensor, logTarget: Tensor): Tensor {
  const c = constantTarget(logTarget);
  if (c !== null) return full(logits.shape.slice(0, -1), Math.exp(c), 'float64');
  return logits.to('float64').logSoftmax(-1).add(logTarget).logsumexp(-1).exp();
}

/**
 * pi_plug [..., K] from logits [..., K] and log lambdahat [K] or [..., K]. A target that is
 * constant over anchors cancels; -Infinity everywhere (nothing can commit) would give NaN, so
 * the classifier alone allocates then.
 */
export function plugInAllocation(logits: Tensor, logTarget: Tensor, temperature = 1): Tensor {
  if (!(temperature > 0)) throw new Error(`temperature must be > 0, got ${temperature}`);
  const l = logits.to('float64').div(temperature);
  const cancels = constantTarget(logTarget) !== null || !(logTarget.isfinite().any().item() > 0);
  return (cancels ? l : l.add(logTarget)).softmax(-1);
}

/**
 * logits [B, L, K] of P_theta; logTarget: log lambdahat, [K] (anchor-agnostic closed form) or
 * [B, L, K]. Anchors with log lambdahat = -Infinity can never be reached.
 */
export function plugIn(logits: Tensor, logTarget: Tensor, temperature = 1): PlugIn {
  const allocation = plugInAllocation(logits, logTarget, temperature); // checks the temperature
  return { rate: plugInRate(logits, logTarget), allocation };
}
