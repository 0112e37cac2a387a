// The denoiser backbone (docs/design.md §2, `model/`): learned absolute positions, a stack of
// non-causal transformer blocks and a head to K classes. Two kinds: GPT-2-like pre-LN blocks
// with a final LayerNorm (time conditioning added to the input by the caller), or DiT blocks
// with adaLN-zero conditioning on a vector c in every block and in the output layer.
// Options: attention restricted to the task's relations (attention-pattern.ts), and weight-tied
// looping (the stack of blocks applied `loops` times with the same weights), with the head
// readable after every loop for deep supervision, and a causal mask (each position sees itself
// and the positions before it: the autoregressive baselines' decoder, causal-decoder.ts).
// Input is a sequence of d-vectors (token embeddings, or the SJD state y), output logits.
import { arange, keep, nn, type Tensor, type TorchGenerator, tidy } from '../torch/index.js';
import { type AttentionKind, attentionBias, causalBias } from './attention-pattern.js';
import { DiTBlock, DiTFinal } from './dit-block.js';

export type Conditioning = 'add' | 'adaln';

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
  /** 'add' (GPT-2-like, default) or 'adaln' (DiT, adaLN-zero) */
  conditioning?: Conditioning;
  /** positions by rotary embedding in attention (MDLM's DiT) instead of learned absolute ones */
  rotary?: boolean;
  /** 'dense' (default), or attention restricted to the relations: 'peers' or 'typed' heads */
  attention?: AttentionKind;
  /** per relation (e.g. row, col, box): the group index of every position; for 'peers'/'typed' */
  relations?: number[][];
  /** weight-tied looping: the blocks are applied this many times in sequence (default 1) */
  loops?: number;
  /** each position attends only to itself and earlier positions (default false) */
  causal?: boolean;
}

/** The relations' bias [H or 1, L, L] with the causal one added when `causal` (kept). */
function withCausal(bias: Tensor | undefined, causal: boolean, length: number): Tensor | undefined {
  if (!causal) return bias;
  const mask = causalBias(length); // [1, L, L]
  if (!bias) return mask;
  const both = keep(tidy(() => bias.add(mask))); // [H or 1, L, L]
  bias.dispose();
  mask.dispose();
  return both;
}

export class Backbone extends nn.Module {
  readonly pos: nn.Embedding | null; // [L, d], learned absolute positions (not with rotary)
  readonly blocks: (nn.TransformerBlock | DiTBlock)[];
  readonly lnF: nn.LayerNorm | null; // 'add'
  readonly head: nn.Linear | null; // 'add'
  readonly final: DiTFinal | null; // 'adaln'
  readonly #positions: Tensor; // [L] int64
  readonly bias: Tensor | undefined; // [H or 1, L, L] additive attention pattern (derived)

  constructor(
    readonly config: BackboneConfig,
    gen: TorchGenerator,
  ) {
    super();
    const c = config;
    this.pos = c.rotary
      ? null
      : this.child('pos', new nn.Embedding(c.length, c.dim, { gen, std: c.posStd ?? 0.02 }));
    const rotary = c.rotary ? new nn.Rotary(c.length, c.dim / c.heads) : undefined;
    const dit = c.conditioning === 'adaln';
    if (c.loops !== undefined && !(Number.isInteger(c.loops) && c.loops >= 1))
      throw new Error(`model.loops: ${c.loops} is not a whole number >= 1`);
    this.bias = withCausal(
      attentionBias(c.attention ?? 'dense', c.relations, c.heads, c.length),
      c.causal === true,
      c.length,
    );
    const opts = {
      dim: c.dim,
      heads: c.heads,
      mlpHidden: c.mlpHidden,
      dropout: c.dropout,
      gen,
      rotary,
      bias: this.bias,
    };
    this.blocks = Array.from({ length: c.depth }, (_, i) =>
      this.child(`blocks.${i}`, dit ? new DiTBlock(opts) : new nn.TransformerBlock(opts)),
    );
    this.lnF = dit ? null : this.child('ln_f', new nn.LayerNorm(c.dim));
    this.head = dit ? null : this.child('head', new nn.Linear(c.dim, c.classes, { gen }));
    this.final = dit ? this.child('final', new DiTFinal(c.dim, c.classes, gen)) : null;
    this.#positions = keep(arange(0, c.length));
  }

  /** h [B, L, d], c [B, d] (the 'adaln' conditioning vector) -> logits [B, L, K] */
  forward(h: Tensor, c?: Tensor, mask?: Tensor): Tensor {
    return this.#run(h, c, mask, false).at(-1)!;
  }

  /**
   * The logits after every loop through the blocks, the head applied to each loop's output
   * (deep supervision, trainer's deepSupervision): [loops] x [B, L, K], the last = forward's.
   */
  forwardEachLoop(h: Tensor, c?: Tensor, mask?: Tensor): Tensor[] {
    return this.#run(h, c, mask, true);
  }

  #run(h: Tensor, c: Tensor | undefined, mask: Tensor | undefined, every: boolean): Tensor[] {
    let x = this.pos ? h.add(this.pos.forward(this.#positions)) : h; // [B, L, d]
    const loops = this.config.loops ?? 1;
    if (this.final && !c) throw new Error('an adaLN backbone needs its conditioning vector');
    const head = (z: Tensor) =>
      this.final ? this.final.forward(z, c!) : this.head!.forward(this.lnF!.forward(z));
    const out: Tensor[] = [];
    for (let n = 0; n < loops; n++) {
      // Each block in its own scope: intermediates autograd does not save are freed at once.
      for (const b of this.blocks)
        x = tidy(() =>
          this.final
            ? (b as DiTBlock).forward(x, c!, mask)
            : (b as nn.TransformerBlock).forward(x, mask),
        );
      if (every || n === loops - 1) out.push(head(x));
    }
    return out; // [B, L, K] each
  }
}
