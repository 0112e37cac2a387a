// The variance-preserving schedule (app:prelim-continuous): linear beta(t) on [0, T],
// B(t) = int_0^t beta, alpha(t) = exp(-B(t)/2), sigma^2(t) = 1 - alpha^2(t); forward drift
// b_t(x) = -beta(t) x / 2 and diffusion g_t = sqrt(beta(t)). Scalars in float64.

export interface VPConfig {
  betaMin: number;
  betaMax: number;
  T: number;
}

export const VP_DEFAULT: VPConfig = { betaMin: 0.1, betaMax: 20, T: 1 };

export class VPSchedule {
  constructor(readonly config: VPConfig = VP_DEFAULT) {
    const { betaMin, betaMax, T } = config;
    if (!(betaMin >= 0 && betaMax >= betaMin && T > 0)) {
      throw new Error(
        `VP schedule: need 0 <= betaMin <= betaMax and T > 0, got ${JSON.stringify(config)}`,
      );
    }
  }
  get T(): number {
    return this.config.T;
  }
  /** beta(t) = g_t^2 */
  beta(t: number): number {
    const { betaMin, betaMax, T } = this.config;
    return betaMin + ((betaMax - betaMin) * t) / T;
  }
  /** B(t) = int_0^t beta(s) ds */
  B(t: number): number {
    const { betaMin, betaMax, T } = this.config;
    return betaMin * t + ((betaMax - betaMin) * t * t) / (2 * T);
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
   * v_t(tau) = sigma^2(t) - (1 - eta^2) alpha^2(t)/alpha^2(tau) sigma^2(tau)
   * (eq:vp-matched-convolution): the variance at t of a particle that unstuck at tau.
   */
  v(t: number, tau: number, eta: number): number {
    const decay = Math.exp(-(this.B(t) - this.B(tau))); // alpha^2(t) / alpha^2(tau)
    return this.sigma2(t) - (1 - eta * eta) * decay * this.sigma2(tau);
  }
}
