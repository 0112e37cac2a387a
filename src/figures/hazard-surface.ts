// The DHM target lambdahat_t(y, a) of one anchor in d = 1 as a surface over (t, y)
// (def:dhm-target, eq:dhm-target; fig:eta-commit): the engine's own target, as the samplers read
// it (process/dhm.ts logTarget), the closed form lambda_t S(t) / (1 - S(t)) where the process has
// it (eta = 1: eq:eta1-collapse, the same at every y) and the tau-quadrature of app:plugin below,
// whose mixture p_t^ac(y | a) has the variance v_t(tau) of eq:app-vp-matched-convolution.
import { logTarget, type SJDProcess } from '../process/index.js';
import { tensor, tidy } from '../torch/index.js';

export interface HazardSurface {
  t: Float64Array; // [nt] forward times
  y: Float64Array; // [ny] states
  value: Float64Array; // [nt * ny] lambdahat_t(y, a), t-major (0 where nothing can commit)
}

/** lambdahat_t(y, a) for the anchor E(a) = `anchor` (d = 1) at every (t, y) of the two grids. */
export function hazardSurface(
  proc: SJDProcess,
  anchor: number,
  t: Float64Array,
  y: Float64Array,
): HazardSurface {
  const ny = y.length;
  const value = new Float64Array(t.length * ny);
  tidy(() => {
    const E = tensor([anchor], [1, 1], 'float64'); // [K = 1, d = 1]
    const states = tensor(y, [ny, 1, 1], 'float64'); // [ny, L = 1, d = 1]
    t.forEach((ti, i) => {
      const log = logTarget(proc, states, E, ti).logTarget.expand([ny, 1, 1]); // [ny, 1, K]
      value.set(Float64Array.from(log.contiguous().toArray(), Math.exp), i * ny);
    });
  });
  return { t, y, value };
}
