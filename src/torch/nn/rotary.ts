// Rotary position embedding (Su et al., RoFormer; used by MDLM's DiT): queries and keys of each
// head are rotated pairwise by angles proportional to their position, so that attention scores
// depend on relative offsets. Pairs are (i, i + Dh/2) ("rotate half", as in GPT-NeoX and MDLM);
// frequencies base^(-2i/Dh). The cos/sin tables are derived buffers, not parameters.
import { arange } from '../factories.js';
import { cat } from '../functional.js';
import { keep, tidy } from '../scope.js';
import type { Tensor } from '../tensor.js';

export class Rotary {
  readonly cos: Tensor; // [L, Dh]
  readonly sin: Tensor; // [L, Dh]

  constructor(
    readonly length: number,
    readonly headDim: number,
    base = 10000,
  ) {
    if (headDim % 2 !== 0) throw new Error(`rotary: head dimension ${headDim} must be even`);
    const [cos, sin] = tidy(() => {
      const half = headDim / 2;
      const freqs = arange(0, half, 1, 'float32')
        .mul(-(2 * Math.log(base)) / headDim)
        .exp(); // [Dh/2]
      const angles = arange(0, length, 1, 'float32').unsqueeze(1).mul(freqs); // [L, Dh/2]
      const both = cat([angles, angles], -1); // [L, Dh]
      return [both.cos(), both.sin()];
    });
    this.cos = keep(cos!);
    this.sin = keep(sin!);
  }

  /** x [B, H, L, Dh] -> x rotated by position */
  apply(x: Tensor): Tensor {
    const half = this.headDim / 2;
    const x1 = x.narrow(-1, 0, half);
    const x2 = x.narrow(-1, half, half);
    const rotated = cat([x2.neg(), x1], -1); // rotate_half(x)
    return x.mul(this.cos).add(rotated.mul(this.sin));
  }
}
