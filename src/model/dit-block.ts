// DiT-style transformer block with adaLN-zero time conditioning (Peebles & Xie; the text8
// denoiser of app:text8, docs/design.md §5): from the conditioning vector c, one zero-initialised
// linear layer gives shift, scale and gate for the attention and MLP branches, so every block
// starts as the identity. LayerNorms carry no affine parameters of their own.
import { nn, type Tensor, type TorchGenerator } from '../torch/index.js';

/** x [B, L, D] * (1 + scale [B, 1, D]) + shift [B, 1, D] */
export function modulate(x: Tensor, shift: Tensor, scale: Tensor): Tensor {
  return x.mul(scale.add(1)).add(shift);
}

export interface DiTBlockOptions {
  dim: number;
  heads: number;
  mlpHidden: number;
  dropout?: number;
  gen: TorchGenerator;
  rotary?: nn.Rotary;
  /** additive attention pattern [H or 1, L, L], as in MultiHeadSelfAttention */
  bias?: Tensor;
}

export class DiTBlock extends nn.Module {
  readonly ln1: nn.LayerNorm;
  readonly attn: nn.MultiHeadSelfAttention;
  readonly ln2: nn.LayerNorm;
  readonly mlp: nn.MLP;
  readonly ada: nn.Linear; // c [B, D] -> [B, 6 D]

  constructor(o: DiTBlockOptions) {
    super();
    const p = o.dropout ?? 0;
    this.ln1 = this.child('ln1', new nn.LayerNorm(o.dim, 1e-6, false));
    this.attn = this.child(
      'attn',
      new nn.MultiHeadSelfAttention(o.dim, o.heads, p, o.gen, o.rotary, o.bias),
    );
    this.ln2 = this.child('ln2', new nn.LayerNorm(o.dim, 1e-6, false));
    this.mlp = this.child('mlp', new nn.MLP(o.dim, o.mlpHidden, p, o.gen));
    this.ada = this.child('ada', new nn.Linear(o.dim, 6 * o.dim, { zero: true }));
  }

  /** x [B, L, D], c [B, D] -> [B, L, D]; mask as in MultiHeadSelfAttention */
  forward(x: Tensor, c: Tensor, mask?: Tensor): Tensor {
    const [shift1, scale1, gate1, shift2, scale2, gate2] = this.ada
      .forward(c.silu())
      .unsqueeze(1)
      .chunk(6, -1) as [Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]; // each [B, 1, D]
    const a = this.attn.forward(modulate(this.ln1.forward(x), shift1, scale1), mask);
    const h = x.add(gate1.mul(a));
    const m = this.mlp.forward(modulate(this.ln2.forward(h), shift2, scale2));
    return h.add(gate2.mul(m));
  }
}

/** The DiT output layer: adaLN (shift, scale; zero-initialised) then the linear head. */
export class DiTFinal extends nn.Module {
  readonly ln: nn.LayerNorm;
  readonly ada: nn.Linear; // c [B, D] -> [B, 2 D]
  readonly head: nn.Linear;

  constructor(dim: number, classes: number, gen: TorchGenerator) {
    super();
    this.ln = this.child('ln', new nn.LayerNorm(dim, 1e-6, false));
    this.ada = this.child('ada', new nn.Linear(dim, 2 * dim, { zero: true }));
    this.head = this.child('head', new nn.Linear(dim, classes, { gen }));
  }

  /** x [B, L, D], c [B, D] -> logits [B, L, K] */
  forward(x: Tensor, c: Tensor): Tensor {
    const [shift, scale] = this.ada.forward(c.silu()).unsqueeze(1).chunk(2, -1) as [Tensor, Tensor];
    return this.head.forward(modulate(this.ln.forward(x), shift, scale));
  }
}
