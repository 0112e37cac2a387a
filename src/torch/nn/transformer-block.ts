// Pre-LN transformer block (GPT-2 style, non-causal): x + Attn(LN(x)), then x + MLP(LN(x)).
import type { TorchGenerator } from '../random.js';
import type { Tensor } from '../tensor.js';
import { MultiHeadSelfAttention } from './attention.js';
import { LayerNorm } from './layer-norm.js';
import { MLP } from './mlp.js';
import { Module } from './module.js';
import type { Rotary } from './rotary.js';

export interface BlockOptions {
  dim: number;
  heads: number;
  mlpHidden?: number;
  dropout?: number;
  gen?: TorchGenerator;
  rotary?: Rotary;
  /** additive attention pattern [H or 1, L, L], as in MultiHeadSelfAttention */
  bias?: Tensor;
}

export class TransformerBlock extends Module {
  readonly ln1: LayerNorm;
  readonly attn: MultiHeadSelfAttention;
  readonly ln2: LayerNorm;
  readonly mlp: MLP;

  constructor(opts: BlockOptions) {
    super();
    const p = opts.dropout ?? 0;
    this.ln1 = this.child('ln1', new LayerNorm(opts.dim));
    this.attn = this.child(
      'attn',
      new MultiHeadSelfAttention(opts.dim, opts.heads, p, opts.gen, opts.rotary, opts.bias),
    );
    this.ln2 = this.child('ln2', new LayerNorm(opts.dim));
    this.mlp = this.child('mlp', new MLP(opts.dim, opts.mlpHidden ?? 4 * opts.dim, p, opts.gen));
  }

  /** x [B, L, d] -> [B, L, d]; mask as in MultiHeadSelfAttention. */
  forward(x: Tensor, mask?: Tensor): Tensor {
    const h = x.add(this.attn.forward(this.ln1.forward(x), mask));
    return h.add(this.mlp.forward(this.ln2.forward(h)));
  }
}
