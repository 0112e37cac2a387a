// The mixture density p_t^ac(y | a) = int_0^t lambda_tau(a) S_a(tau) N(y; alpha(t) mu_a,
// v_t(tau) I) dtau (rem:mixture, eq:app-plugin-quadrature) on a tau-grid, in the log domain
// (eq:app-logsumexp), and the time posterior w_t(tau | y, a) (eq:app-time-posterior) from the
// same terms. Simpson or midpoint rule, N_tau nodes. Float64 throughout.
import { type Tensor, tensor } from '../torch/index.js';
import { logRate, logSurvival } from './hazard.js';
import type { QuadratureRule, SJDProcess } from './process.js';

export type { QuadratureRule } from './process.js';

/** Nodes in [0, t] and log weights of the rule. Simpson needs an odd n >= 3. */
export function quadratureNodes(
  rule: QuadratureRule,
  n: number,
  t: number,
): { tau: Float64Array; logW: Float64Array } {
  if (rule === 'midpoint') {
    if (!(Number.isInteger(n) && n >= 1))
      throw new Error(`midpoint quadrature: n must be >= 1, got ${n}`);
    const tau = Float64Array.from({ length: n }, (_, i) => ((i + 0.5) * t) / n);
    return { tau, logW: new Float64Array(n).fill(Math.log(t / n)) };
  }
  if (rule === 'simpson') {
    if (!(Number.isInteger(n) && n >= 3 && n % 2 === 1))
      throw new Error(`simpson quadrature: n must be odd and >= 3, got ${n}`);
    const h = t / (n - 1);
    const tau = Float64Array.from({ length: n }, (_, i) => i * h);
    const logW = Float64Array.from({ length: n }, (_, i) =>
      Math.log(((i === 0 || i === n - 1 ? 1 : i % 2 === 1 ? 4 : 2) * h) / 3),
    );
    return { tau, logW };
  }
  throw new Error(`unknown quadrature rule '${rule}' (simpson, midpoint)`);
}

export interface MixtureTerms {
  /** log p_t^ac(y | a) [..., K] */
  logPac: Tensor;
  /** log of each node's integrand + weight [..., K, N] (softmax over N: the time posterior) */
  logTerms: Tensor;
  /** v_t(tau_i), floored [N] */
  v: Float64Array;
}

/**
 * dist2 [..., K]: ||y - alpha(t) mu_a||^2 for each anchor; d the anchor dimension.
 * Returns log p_t^ac(y | a) and the per-node terms.
 */
export function mixtureTerms(proc: SJDProcess, dist2: Tensor, t: number, d: number): MixtureTerms {
  const { rule, n } = proc.quadrature;
  const { tau, logW } = quadratureNodes(rule, n, t);
  const K = dist2.size(-1);
  const w = proc.anchorWeights(K);
  const N = tau.length;
  const v = Float64Array.from(tau, (s) => proc.variance(t, s));
  const c = new Float64Array(K * N); // [K, N]: log w_i + log lambda_tau(a) + log S_a(tau) - d/2 log(2 pi v)
  for (let a = 0; a < K; a++) {
    for (let i = 0; i < N; i++) {
      c[a * N + i] =
        logW[i]! +
        logRate(proc.hazard, tau[i]!, w[a]!) +
        logSurvival(proc.hazard, tau[i]!, w[a]!) -
        (d / 2) * Math.log(2 * Math.PI * v[i]!);
    }
  }
  const negHalfInvV = tensor(
    Array.from(v, (x) => -0.5 / x),
    [N],
    'float64',
  );
  const logTerms = dist2
    .unsqueeze(-1)
    .mul(negHalfInvV)
    .add(tensor(c, [K, N], 'float64')); // [..., K, N]
  return { logPac: logTerms.logsumexp(-1), logTerms, v };
}
