// Learned per-anchor hazard weights w(a) (app:e2e-hazard, tab:e2e-text8): lambda_t(a) = beta(t)
// w(a), learned with the classifier through the negative ELBO (process/elbo.ts), one parameter
// rho(a) a token (zero at the start: w = 1, and no draw from the generator, so the network's
// other weights are those of the same run without it). The paper's two variants:
//   bounded     w = 2^tanh(rho) in [0.5, 2] (the cross-entropy-driven run);
//   uniform-ce  w = exp(rho) clamped to [0.05, 20] (the L_RB-driven run: w = 1 inside L_CE).
// The weights are a parameter of the network, so AdamW, the EMA, checkpoints and exported models
// carry them; the process reads them when a model is loaded ("deployed").
import { nn, type Tensor, zeros } from '../torch/index.js';

export type LearnedHazardKind = 'bounded' | 'uniform-ce';

export const LEARNED_HAZARD_BOUNDS: Record<LearnedHazardKind, [number, number]> = {
  bounded: [0.5, 2],
  'uniform-ce': [0.05, 20],
};

export class LearnedHazard extends nn.Module {
  readonly #rho: Tensor; // [K] float32

  constructor(
    readonly kind: LearnedHazardKind,
    readonly count: number,
  ) {
    super();
    this.#rho = this.param('rho', zeros([count]));
  }

  /** w [K] float64 (differentiable in rho) */
  weights(): Tensor {
    const rho = this.#rho.to('float64');
    if (this.kind === 'bounded') return rho.tanh().mul(Math.LN2).exp();
    const [lo, hi] = LEARNED_HAZARD_BOUNDS['uniform-ce'];
    return rho.exp().clamp(lo, hi);
  }
}
