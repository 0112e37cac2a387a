// The denoiser backbone (DESIGN.md §2, `model/`): learned absolute positions, a stack of
// pre-LN non-causal transformer blocks, a final LayerNorm and a linear head to K classes.
// Input is a sequence of d-vectors (token embeddings, or the SJD state y), output logits.
import { arange, type Generator, keep, nn, type Tensor, tidy } from '../torch/index.js';

export interface BackboneConfig {
  length: number; // L
  dim: number; // d_model
  depth: number; // number of blocks
  heads: number;
  mlpHidden: number;
  classes: number; // K
  dropout?: number;
  /** init std of the learned positions (GPT-2: 0.02; PyTorch's Embedding default: 1) */
  posStd?: number;
}

export class Backbone extends nn.Module {
  readonly pos: nn.Embedding; // [L, d]
  readonly blocks: nn.TransformerBlock[];
  readonly lnF: nn.LayerNorm;
  readonly head: nn.Linear;
  readonly #positions: Tensor; // [L] int64

  constructor(
    readonly config: BackboneConfig,
    gen: Generator,
  ) {
    super();
    const c = config;
    this.pos = this.child('pos', new nn.Embedding(c.length, c.dim, { gen, std: c.posStd ?? 0.02 }));
    this.blocks = Array.from({ length: c.depth }, (_, i) =>
      this.child(
        `blocks.${i}`,
        new nn.TransformerBlock({
          dim: c.dim,
          heads: c.heads,
          mlpHidden: c.mlpHidden,
          dropout: c.dropout,
          gen,
        }),
      ),
    );
    this.lnF = this.child('ln_f', new nn.LayerNorm(c.dim));
    this.head = this.child('head', new nn.Linear(c.dim, c.classes, { gen }));
    this.#positions = keep(arange(0, c.length));
  }

  /** h [B, L, d] -> logits [B, L, K] */
  forward(h: Tensor, mask?: Tensor): Tensor {
    let x = h.add(this.pos.forward(this.#positions)); // [B, L, d]
    // Each block in its own scope: intermediates autograd does not save are freed at once.
    for (const b of this.blocks) x = tidy(() => b.forward(x, mask));
    return this.head.forward(this.lnF.forward(x));
  }
}
