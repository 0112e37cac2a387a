// The SJD process object (sec:sjd, ex:vp-matched): VP schedule, forward hazard (with optional
// per-anchor weights w(a)), unsticking kernel (VP-matched Gaussian with ratio eta, or a delta at
// a mask point), blending matrix W and how it enters the mean (embeddings, or raw values then
// the sinusoidal value embedding). Masked, continuous, hybrid and blended diffusion are
// configurations of this one object (presets.ts); train/ and sampling/ call its methods.
import { embedding, type Tensor, tensor, where } from '../torch/index.js';
import type { Blend } from './blend.js';
import { type Hazard, type HazardSpec, makeHazard } from './hazard.js';
import { interpolatedEmbedding, valueEmbedding } from './value-embedding.js';
import { type VPConfig, VPSchedule } from './vp.js';

export const VARIANCE_FLOOR = 1e-6; // (std floor 1e-3, docs/design.md §4)

/** The rule of the eta < 1 quadrature (quadrature.ts). */
export type QuadratureRule = 'simpson' | 'midpoint';

export interface ProcessConfig {
  /** the process's name (masked, continuous, hybrid, sjd: presets.ts), for manifests and errors */
  name: string;
  /** unsticking kernel: VP-matched Gaussian (eq:nonlocal-r) or a delta at a mask point (eq:mdlm-as-sjd) */
  kernel: 'vp' | 'mask';
  vp: VPConfig;
  hazard: HazardSpec;
  /** variance ratio of the unsticking kernel, (0, 1] */
  eta: number;
  /** w(a): per-anchor hazard weights (rate beta(t) w(a), survival S^w(a)); all 1 when absent */
  anchorWeights?: number[];
  quadrature: { rule: QuadratureRule; n: number };
  /** how W enters the mean: W E(x0) ('embedding') or E(W v(x0)) ('value', eq:embed-the-blur) */
  mean: 'embedding' | 'value';
  /** frequencies F of the value embedding ('value' mean) */
  valueFrequencies?: number;
  /**
   * how a 'value' mean embeds blended values: the fixed sinusoidal embedding (eq:embed-the-blur),
   * or the anchor table itself, linearly between neighbouring levels ('anchors': learned anchors)
   */
  valueEmbedding?: 'sinusoidal' | 'anchors';
  /** how the last sampler step commits the remaining sites: draw from the allocation, or its argmax */
  finalCommit: 'sample' | 'argmax';
}

/** Sites whose token is known: committed [B, L] bool, tokens [B, L] int64 (read where committed). */
export interface ExactSites {
  committed: Tensor;
  tokens: Tensor;
}

export class SJDProcess {
  readonly vp: VPSchedule;
  readonly hazard: Hazard;

  constructor(
    readonly config: ProcessConfig,
    readonly blend: Blend,
  ) {
    const c = config;
    if (!(c.eta > 0 && c.eta <= 1)) throw new Error(`eta must be in (0, 1], got ${c.eta}`);
    if (c.eta < 1 && !blend.isIdentity && c.kernel === 'vp') {
      throw new Error(
        `eta < 1 with a non-identity W (${blend.name}) is not supported: the reverse process would need the joint posterior, per-position marginals no longer suffice (paper app:classifier-score)`,
      );
    }
    if (c.kernel === 'mask' && !blend.isIdentity)
      throw new Error('the mask kernel (masked diffusion) takes no blending matrix W');
    this.vp = new VPSchedule(c.vp);
    this.hazard = makeHazard(c.hazard, c.vp.T);
  }

  get T(): number {
    return this.config.vp.T;
  }
  get eta(): number {
    return this.config.eta;
  }
  get quadrature(): { rule: QuadratureRule; n: number } {
    return this.config.quadrature;
  }
  /** The spatial factor r/p^ac is 1/(1 - S): closed-form rate, allocation = posterior. */
  get closedForm(): boolean {
    return this.config.eta === 1 || this.config.kernel === 'mask' || this.hazard.instant === true;
  }

  /** The same process with hazard weights w(a) (learned ones, read from a network), or none. */
  withAnchorWeights(w: number[] | undefined): SJDProcess {
    return new SJDProcess({ ...this.config, anchorWeights: w }, this.blend);
  }

  /** The same process with another tau-quadrature (rule, N_tau). */
  withQuadrature(rule: QuadratureRule, n: number): SJDProcess {
    return new SJDProcess({ ...this.config, quadrature: { rule, n } }, this.blend);
  }

  /** w(a) for K anchors (validated against K). */
  anchorWeights(K: number): Float64Array {
    const w = this.config.anchorWeights;
    if (!w) return new Float64Array(K).fill(1);
    if (w.length !== K) throw new Error(`anchorWeights has ${w.length} entries for ${K} anchors`);
    return Float64Array.from(w);
  }

  /** v_t(tau), floored (eq:vp-matched-convolution). */
  variance(t: number, tau: number): number {
    return Math.max(this.vp.v(t, tau, this.config.eta), VARIANCE_FLOOR);
  }

  /**
   * Blended mean of a distribution over anchors per position: probs [B, L, K], anchors [K, d]
   * -> [B, L, d]; with `exact`, the committed sites' own tokens in place of their probabilities.
   */
  blendedMean(probs: Tensor, anchors: Tensor, exact?: ExactSites): Tensor {
    const K = anchors.size(0);
    // A committed site's mean is its own anchor (or value) exactly: set after the product,
    // on [B, L, d] (or [B, L, 1]) rather than on the probabilities [B, L, K].
    const at = (m: Tensor, own: (tokens: Tensor) => Tensor) =>
      exact ? where(exact.committed.unsqueeze(-1), own(exact.tokens.clamp(0, null)), m) : m;
    if (this.config.mean === 'value') {
      const values = tensor(
        Array.from({ length: K }, (_, k) => k),
        [K],
        probs.dtype,
      );
      // a product with a vector (libtorch's mv: at 256 levels about twice as fast as with [K, 1])
      const m = at(probs.matmul(values).unsqueeze(-1), (x) => x.to(probs.dtype).unsqueeze(-1)); // [B, L, 1]
      return this.embedValues(this.blend.apply(m).squeeze(-1), anchors); // v [B, L] embedded
    }
    const E = anchors.to(probs.dtype); // [K, d]
    if (K < E.size(1) && !this.blend.isIdentity) {
      // (W P) E: with fewer anchors than dimensions W mixes [B, L, K] rather than [B, L, d]
      // (Sudoku: 9 against 64; 4x fewer products); a committed site's row is its one-hot, whose
      // product with E is its anchor exactly
      const own = (tokens: Tensor) =>
        tokens
          .clamp(0, K - 1)
          .oneHot(K)
          .to(probs.dtype);
      const p = exact ? where(exact.committed.unsqueeze(-1), own(exact.tokens), probs) : probs;
      return this.blend.apply(p).matmul(E); // [B, L, d]
    }
    return this.blend.apply(at(probs.matmul(E), (x) => embedding(E, x))); // W (P E)
  }

  /** mu = W E(x0): x0 [B, L] int64, anchors [K, d] -> [B, L, d] (gradients reach learned anchors). */
  tokenMean(x0: Tensor, anchors: Tensor): Tensor {
    if (this.config.mean === 'value') {
      const v = this.blend.apply(x0.to('float64').unsqueeze(-1)).squeeze(-1); // [B, L]
      return this.embedValues(v, anchors);
    }
    return this.blend.apply(embedding(anchors, x0));
  }

  /** Blended values v [B, L] embedded as the config says: [B, L, d] in the anchors' dtype. */
  embedValues(v: Tensor, anchors: Tensor): Tensor {
    if (this.config.valueEmbedding === 'anchors') return interpolatedEmbedding(v, anchors);
    return valueEmbedding(v, this.config.valueFrequencies ?? 4, anchors.size(0)).to(anchors.dtype);
  }

  /** ||y - alpha(t) E(a)||^2 for every anchor: y [B, L, d], anchors [K, d] -> [B, L, K] float64. */
  anchorDistances(y: Tensor, anchors: Tensor, t: number): Tensor {
    const a = this.vp.alpha(t);
    const y64 = y.to('float64');
    const e = anchors.to('float64').mul(a); // [K, d]
    const cross = y64.matmul(e.transpose(0, 1)); // [B, L, K]
    return y64.square().sum(-1, true).sub(cross.mul(2)).add(e.square().sum(-1)).clamp(0, null);
  }
}
