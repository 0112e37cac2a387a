// A causal transformer over the sites of a board in a given order: the autoregressive baselines
// of tab:sudoku_schedule_ablations (Shah et al. 2024, "Causal language modeling can elicit search
// and reasoning capabilities on logic puzzles"), outside the SJD engine. Shah et al. write a
// solution as (row, column, value) triples in an order; here position k of the sequence is told
// the site it predicts, pi(k), and the value the previous position holds, (pi(k-1), x_pi(k-1))
// (a start token at k = 0), so the model predicts x_pi(k) from the sites and values before it
// and knows which site comes next. The same GPT-2-like blocks as the denoiser (backbone.ts), with
// the causal mask and dense attention (the constraint-graph patterns relate sites, not sequence
// positions); the head gives logits over the K values.
import { cat, nn, type Tensor, type TorchGenerator } from '../torch/index.js';
import { Backbone } from './backbone.js';

// Site and value tables start at PyTorch's Embedding scale, as the denoiser's structure does.
const EMBED_STD = 1;

export interface CausalDecoderConfig {
  sites: number; // L: the sequence is every site once
  classes: number; // K values a site takes
  width: number;
  depth: number;
  heads: number;
  mlpHidden: number;
  dropout?: number;
}

export class CausalDecoder extends nn.Module {
  readonly previousSite: nn.Embedding; // [L + 1, width]: row L is the start token
  readonly previousValue: nn.Embedding; // [K + 1, width]: row K is the start token
  readonly nextSite: nn.Embedding; // [L, width]
  readonly backbone: Backbone;

  constructor(
    readonly config: CausalDecoderConfig,
    gen: TorchGenerator,
  ) {
    super();
    const c = config;
    const table = (name: string, n: number) =>
      this.child(name, new nn.Embedding(n, c.width, { gen, std: EMBED_STD }));
    this.previousSite = table('previous_site', c.sites + 1);
    this.previousValue = table('previous_value', c.classes + 1);
    this.nextSite = table('next_site', c.sites);
    this.backbone = this.child(
      'backbone',
      new Backbone(
        {
          length: c.sites,
          dim: c.width,
          depth: c.depth,
          heads: c.heads,
          mlpHidden: c.mlpHidden,
          classes: c.classes,
          dropout: c.dropout,
          posStd: EMBED_STD,
          causal: true,
        },
        gen,
      ),
    );
  }

  /** The start token's site and value indices (previous site and value at position 0). */
  get start(): { site: number; value: number } {
    return { site: this.config.sites, value: this.config.classes };
  }

  /**
   * order [B, L] int64 (the site each position predicts), previous [B, L] int64 (the value the
   * site before it holds: previous[:, k] = x[order[:, k - 1]], K at k = 0) -> logits [B, L, K]
   * for the value of site order[:, k]. Position k sees positions 0..k only.
   */
  forward(order: Tensor, previous: Tensor): Tensor {
    const start = order.narrow(1, 0, 1).mul(0).add(this.start.site); // [B, 1]
    const before = cat([start, order.narrow(1, 0, this.config.sites - 1)], 1); // [B, L]
    const h = this.previousSite
      .forward(before)
      .add(this.previousValue.forward(previous))
      .add(this.nextSite.forward(order)); // [B, L, width]
    return this.backbone.forward(h); // [B, L, K]
  }
}
