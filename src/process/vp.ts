// The variance-preserving schedule (app:prelim-continuous): B(t) = int beta, alpha(t) =
// exp(-B(t)/2), sigma^2(t) = 1 - alpha^2(t); forward drift b_t(x) = -beta(t) x / 2 and
// diffusion g_t = sqrt(beta(t)). beta is linear on [0, T] (the default, B(0) = 0), or CANDI's
// rank-degradation schedule (rank-schedule.ts; text8). Scalars in float64; B and v_t(tau) also
// elementwise on float64 tensors of unstick times (so Alg. 1 runs on the model's device).
import type { Tensor } from '../torch/index.js';
import { type RankVPConfig, rankDegradation } from './rank-schedule.js';

export interface LinearVPConfig {
  kind?: 'linear';
  betaMin: number;
  betaMax: number;
  T: number;
}

export type VPConfig = LinearVPConfig | RankVPConfig;

export const VP_DEFAULT: VPConfig = { betaMin: 0.1, betaMax: 20, T: 1 };

interface VPLaw {
  B(t: number): number;
  /** B elementwise on a float64 tensor */
  BTensor(t: Tensor): Tensor;
  beta(t: number): number;
}

function linear(config: LinearVPConfig): VPLaw {
  const { betaMin, betaMax, T } = config;
  if (!(betaMin >= 0 && betaMax >= betaMin && T > 0)) {
    throw new Error(
      `VP schedule: need 0 <= betaMin <= betaMax and T > 0, got ${JSON.stringify(config)}`,
    );
  }
  return {
    B: (t) => betaMin * t + ((betaMax - betaMin) * t * t) / (2 * T),
    BTensor: (t) => t.mul(t.mul((betaMax - betaMin) / (2 * T)).add(betaMin)),
    beta: (t) => betaMin + ((betaMax - betaMin) * t) / T,
  };
}

export class VPSchedule {
  readonly #law: VPLaw;

  constructor(readonly config: VPConfig = VP_DEFAULT) {
    if (config.kind === 'rank') this.#law = rankDegradation(config);
    else if (config.kind === undefined || config.kind === 'linear') this.#law = linear(config);
    else
      throw new Error(`unknown VP schedule '${(config as { kind: string }).kind}' (linear, rank)`);
  }
  get T(): number {
    return this.config.T;
  }
  /** beta(t) = g_t^2 */
  beta(t: number): number {
    return this.#law.beta(t);
  }
  /** B(t) = -log alpha^2(t) (int_0^t beta for the linear schedule) */
  B(t: number): number {
    return this.#law.B(t);
  }
  logAlpha(t: number): number {
    return -this.B(t) / 2;
  }
  alpha(t: number): number {
    return Math.exp(-this.B(t) / 2);
  }
  /** sigma^2(t) = 1 - alpha^2(t), accurate near t = 0 */
  sigma2(t: number): number {
    return -Math.expm1(-this.B(t));
  }
  /**
   * The Gaussian posterior of the VP semigroup (DDPM's q(y_s | y_t, x0), Ho et al. eq. 6-7) for a
   * site unstuck before s < t with clean mean mu: y_s | y_t, mu ~ N(cY y_t + cMu mu, variance I),
   *   alpha_{t|s} = alpha(t) / alpha(s),   sigma^2_{t|s} = 1 - alpha_{t|s}^2,
   *   cY = alpha_{t|s} sigma^2(s) / sigma^2(t),   cMu = alpha(s) sigma^2_{t|s} / sigma^2(t),
   *   variance = sigma^2_{t|s} sigma^2(s) / sigma^2(t).
   * Exact at eta = 1, where an unstuck site's law at every later time is N(alpha mu, sigma^2 I)
   * whatever its unstick time (eq:vp-matched-convolution), so between s and t it is the VP
   * transition. sigma^2(t) floored at `floor`.
   */
  posterior(t: number, s: number, floor = 0): { cY: number; cMu: number; variance: number } {
    const Bt = this.B(t);
    const Bs = this.B(s);
    const a2 = Math.exp(-(Bt - Bs)); // alpha_{t|s}^2
    const s2ts = -Math.expm1(-(Bt - Bs)); // sigma^2_{t|s}
    const s2t = Math.max(-Math.expm1(-Bt), floor);
    const s2s = -Math.expm1(-Bs);
    return {
      cY: (Math.sqrt(a2) * s2s) / s2t,
      cMu: (Math.exp(-Bs / 2) * s2ts) / s2t,
      variance: (s2ts * s2s) / s2t,
    };
  }
  /**
   * v_t(tau) = sigma^2(t) - (1 - eta^2) alpha^2(t)/alpha^2(tau) sigma^2(tau)
   * (eq:vp-matched-convolution): the variance at t of a particle that unstuck at tau.
   */
  v(t: number, tau: number, eta: number): number {
    const decay = Math.exp(-(this.B(t) - this.B(tau))); // alpha^2(t) / alpha^2(tau)
    return this.sigma2(t) - (1 - eta * eta) * decay * this.sigma2(tau);
  }
  /** v_t(tau) elementwise: float64 tensors t and tau (broadcasting, e.g. [B, 1] and [B, L]) */
  vTensor(t: Tensor, tau: Tensor, eta: number): Tensor {
    const Bt = this.#law.BTensor(t);
    const Btau = this.#law.BTensor(tau);
    const decay = Btau.sub(Bt).exp(); // alpha^2(t) / alpha^2(tau)
    const sigma2 = (b: Tensor) => b.neg().expm1().neg();
    return sigma2(Bt).sub(decay.mul(sigma2(Btau)).mul(1 - eta * eta));
  }
}
