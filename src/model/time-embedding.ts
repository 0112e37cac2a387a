// Sinusoidal time conditioning (docs/design.md §5): [sin(1000 t w_k), cos(1000 t w_k)] with
// w_k = 10000^(-k / (dim/2)), then an MLP (dim -> 4 dim -> dim, GELU), as in DiT / GPT-2-like
// diffusion transformers.
import { arange, cat, nn, type Tensor, type TorchGenerator } from '../torch/index.js';

/** t [B] (float) -> [B, dim] */
export function sinusoidal(t: Tensor, dim: number): Tensor {
  const half = dim / 2;
  const freqs = arange(0, half, 1, 'float32')
    .mul(-Math.log(10000) / half)
    .exp(); // [half]
  const args = t.to('float32').mul(1000).unsqueeze(1).mul(freqs); // [B, half]
  return cat([args.sin(), args.cos()], 1);
}

export class TimeEmbedding extends nn.Module {
  readonly fc: nn.Linear;
  readonly proj: nn.Linear;

  constructor(
    readonly dim: number,
    gen: TorchGenerator,
  ) {
    super();
    if (dim % 2 !== 0) throw new Error(`time embedding: width ${dim} must be even`);
    this.fc = this.child('fc', new nn.Linear(dim, 4 * dim, { gen }));
    this.proj = this.child('proj', new nn.Linear(4 * dim, dim, { gen }));
  }

  /** t [B] -> [B, dim] */
  forward(t: Tensor): Tensor {
    return this.proj.forward(this.fc.forward(sinusoidal(t, this.dim)).gelu());
  }
}
