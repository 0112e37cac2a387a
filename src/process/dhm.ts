// The DHM target (def:dhm-target, eq:dhm-target):
//   lambdahat_t(y, a) = lambda_t(a) S_a(t) r_t(y | a) / p_t^ac(y | a),
// in the log domain with p^ac from the quadrature (app:plugin), and its closed form
// lambda_t(a) S_a(t) / (1 - S_a(t)) when the spatial factor r/p^ac is 1/(1 - S) (eta = 1,
// the mask kernel, or instant unsticking: eq:eta1-collapse). `logTarget` picks the one the
// process has, as the samplers read it.
import { type Tensor, tensor, where } from '../torch/index.js';
import { logRate, logSurvival } from './hazard.js';
import type { SJDProcess } from './process.js';
import { type MixtureTerms, mixtureTerms } from './quadrature.js';

/**
 * log lambdahat_t(y, a) at the state y [..., d] for anchors [K, d]: the closed form [K] (the same
 * at every y) where the process has it, else the quadrature's [..., K] with its mixture terms
 * (which the classifier-induced score at eta < 1 reuses).
 */
export function logTarget(
  proc: SJDProcess,
  y: Tensor,
  anchors: Tensor,
  t: number,
): { logTarget: Tensor; mixture?: MixtureTerms } {
  const [K, d] = anchors.shape as [number, number];
  if (proc.closedForm) return { logTarget: logTargetClosedForm(proc, t, K) };
  return logTargetQuadrature(proc, proc.anchorDistances(y, anchors, t), t, d);
}

/** log lambda_t(a) S_a(t) / (1 - S_a(t)) per anchor [K] (-Infinity where nothing can commit). */
export function logTargetClosedForm(proc: SJDProcess, t: number, K: number): Tensor {
  const w = proc.anchorWeights(K);
  const out = Array.from(w, (wa) => {
    const logS = logSurvival(proc.hazard, t, wa);
    const logLambda = logRate(proc.hazard, t, wa);
    // No anchor mass left, or no hazard: nothing commits.
    if (logS === Number.NEGATIVE_INFINITY || logLambda === Number.NEGATIVE_INFINITY)
      return Number.NEGATIVE_INFINITY;
    return logLambda + logS - Math.log(-Math.expm1(logS));
  });
  return tensor(out, [K], 'float64');
}

/**
 * log lambdahat_t(y, a) [..., K] by quadrature, from dist2 [..., K] = ||y - alpha(t) mu_a||^2.
 * Also returns the mixture terms (shared with the classifier-induced score).
 */
export function logTargetQuadrature(
  proc: SJDProcess,
  dist2: Tensor,
  t: number,
  d: number,
): { logTarget: Tensor; mixture: MixtureTerms } {
  const K = dist2.size(-1);
  const w = proc.anchorWeights(K);
  const mixture = mixtureTerms(proc, dist2, t, d);
  const var_ = proc.eta * proc.eta * proc.vp.sigma2(t); // variance of r_t(. | a)
  const temporal = tensor(
    Array.from(
      w,
      (wa) =>
        logRate(proc.hazard, t, wa) +
        logSurvival(proc.hazard, t, wa) -
        (d / 2) * Math.log(2 * Math.PI * var_),
    ),
    [K],
    'float64',
  );
  const logR = dist2.mul(-0.5 / var_); // [..., K] (the log-normaliser is in `temporal`)
  // Where p^ac vanishes (no hazard yet) nothing can commit: -Infinity, not NaN.
  const logTarget = where(
    mixture.logPac.isfinite(),
    logR.add(temporal).sub(mixture.logPac),
    Number.NEGATIVE_INFINITY,
  );
  return { logTarget, mixture };
}
