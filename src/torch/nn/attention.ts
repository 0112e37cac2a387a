// Non-causal multi-head self-attention, written out (libtorch 1.13 has no fused attention,
// docs/design.md §3): softmax(Q K^T / sqrt(d_h) + bias + mask) V. The optional bias is a fixed
// additive pattern [H or 1, L, L] (0 = may attend, -inf = may not) shared by the batch, e.g.
// attention restricted to a constraint graph; at small L it costs what dense attention costs.
import { dropout } from '../functional.js';
import { defaultGenerator, type TorchGenerator } from '../random.js';
import type { Tensor } from '../tensor.js';
import { Linear } from './linear.js';
import { Module } from './module.js';
import type { Rotary } from './rotary.js';

export class MultiHeadSelfAttention extends Module {
  readonly qkv: Linear;
  readonly proj: Linear;
  readonly headDim: number;
  readonly gen: TorchGenerator;

  constructor(
    readonly dim: number,
    readonly heads: number,
    readonly dropoutP = 0,
    gen?: TorchGenerator,
    /** rotary position embedding of queries and keys (derived, shared, not a parameter) */
    readonly rotary?: Rotary,
    /** additive attention pattern [H or 1, L, L] (derived, shared, not a parameter) */
    readonly bias?: Tensor,
  ) {
    super();
    if (dim % heads !== 0)
      throw new Error(`attention: width ${dim} is not divisible by ${heads} heads`);
    if (bias && (bias.ndim !== 3 || (bias.size(0) !== 1 && bias.size(0) !== heads)))
      throw new Error(`attention: bias must be [${heads} or 1, L, L], got [${bias.shape}]`);
    this.headDim = dim / heads;
    this.gen = gen ?? defaultGenerator();
    this.qkv = this.child('qkv', new Linear(dim, 3 * dim, { gen: this.gen }));
    this.proj = this.child('proj', new Linear(dim, dim, { gen: this.gen }));
  }

  /** x [B, L, d] -> attention weights [B, H, L, L] (before dropout), values [B, H, L, Dh]. */
  #attend(x: Tensor, mask?: Tensor): { attn: Tensor; v: Tensor } {
    const [B, L] = x.shape as [number, number, number];
    const H = this.heads;
    const Dh = this.headDim;
    const qkv = this.qkv.forward(x).view([B, L, 3, H, Dh]).permute([2, 0, 3, 1, 4]); // [3, B, H, L, Dh]
    let [q, k, v] = qkv.chunk(3, 0).map((t) => t.squeeze(0)) as [Tensor, Tensor, Tensor]; // [B, H, L, Dh]
    if (this.rotary) {
      q = this.rotary.apply(q);
      k = this.rotary.apply(k);
    }
    let scores = q.matmul(k.transpose(-2, -1)).mul(1 / Math.sqrt(Dh)); // [B, H, L, L]
    if (this.bias) {
      if (this.bias.size(1) !== L || this.bias.size(2) !== L)
        throw new Error(`attention: bias [${this.bias.shape}] for length ${L}`);
      scores = scores.add(this.bias); // + [H or 1, L, L], broadcast over the batch
    }
    if (mask) {
      if (mask.ndim !== 2 && mask.ndim !== 3)
        throw new Error(`attention: mask must be [B, L] or [B, L, L], got [${mask.shape}]`);
      const m = mask.ndim === 2 ? mask.view([B, 1, 1, L]) : mask.unsqueeze(1); // broadcast over heads
      scores = scores.maskedFill(m.logicalNot(), Number.NEGATIVE_INFINITY);
    }
    return { attn: scores.softmax(-1), v }; // [B, H, L, L], [B, H, L, Dh]
  }

  /** x [B, L, d] -> the attention weights [B, H, L, L] (rows sum to 1; no dropout). */
  weights(x: Tensor, mask?: Tensor): Tensor {
    return this.#attend(x, mask).attn;
  }

  /**
   * x [B, L, d] -> [B, L, d]. mask, optional: bool [B, L] (true = key may be attended) or
   * bool [B, L, L] (true = query i may attend key j).
   */
  forward(x: Tensor, mask?: Tensor): Tensor {
    const [B, L] = x.shape as [number, number, number];
    const { attn: weights, v } = this.#attend(x, mask);
    const attn = dropout(weights, this.dropoutP, this.training, this.gen); // [B, H, L, L]
    const out = attn.matmul(v).transpose(1, 2).reshape([B, L, this.dim]); // [B, L, d]
    return dropout(this.proj.forward(out), this.dropoutP, this.training, this.gen);
  }
}
