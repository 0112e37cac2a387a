// Anchors E(a) in R^d, one per token (sec:sjd): learned and normalised to norm sqrt(d) as in
// CDCD (docs/design.md §5; raw init std 1e-3), frozen random (normalised the same way), or fixed
// given values used as they are (e.g. the sinusoidal value embedding of images).
import { nn, type Tensor, type TorchGenerator, tidy } from '../torch/index.js';

export type AnchorMode = 'learned' | 'frozen' | 'fixed';

export class Anchors extends nn.Module {
  readonly #raw: Tensor; // [K, d]

  constructor(
    readonly count: number,
    readonly dim: number,
    readonly mode: AnchorMode,
    opts: { gen: TorchGenerator; values?: Tensor },
  ) {
    super();
    if (mode === 'fixed' && !opts.values) throw new Error('fixed anchors need their values');
    const init =
      opts.values ?? tidy(() => opts.gen.randn([count, dim]).mul(mode === 'learned' ? 1e-3 : 1));
    this.#raw = mode === 'learned' ? this.param('raw', init) : this.buffer('raw', init);
  }

  /** E [K, d] (differentiable when learned). */
  forward(): Tensor {
    if (this.mode === 'fixed') return this.#raw;
    return this.#raw.div(this.#raw.norm(2, [1], true).clamp(1e-12, null)).mul(Math.sqrt(this.dim));
  }
}
