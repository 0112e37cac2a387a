// The SJD denoiser P_theta(a | y, t) (sec:classifier): the state y [B, L, d] (anchors at stuck
// positions, noise elsewhere; no mask channel) projected to the model width, plus learned
// absolute positions (in the Backbone), optional learned structure embeddings (e.g. Sudoku's
// row, column and box: an inductive bias of the network, independent of W) and the sinusoidal
// time embedding, either added to the input (GPT-2-like, pre-LN blocks; Sudoku) or fed to every
// block by adaLN-zero (DiT; text8); non-causal attention, dense or restricted to the relations
// of the structure (attention-pattern.ts), optionally weight-tied looped; logits over K anchors.
import { keep, nn, type Tensor, type TorchGenerator, tensor, tidy } from '../torch/index.js';
import { maxOf } from '../util/fold.js';
import { type AnchorMode, Anchors } from './anchors.js';
import type { AttentionKind } from './attention-pattern.js';
import { Backbone, type Conditioning } from './backbone.js';
import { LearnedHazard, type LearnedHazardKind } from './learned-hazard.js';
import { atPrecision, type Precision } from './precision.js';
import { TimeEmbedding } from './time-embedding.js';

// Positions and structure start at PyTorch's Embedding scale (N(0, 1)), comparable to the
// projected state: at GPT-2's 0.02 they take hundreds of steps to matter (measured on Sudoku).
const EMBED_STD = 1;

export interface DenoiserConfig {
  length: number; // L
  classes: number; // K anchors
  anchorDim: number; // d
  anchors: AnchorMode;
  width: number;
  depth: number;
  heads: number;
  mlpHidden: number;
  dropout?: number;
  /** per structure (e.g. row, col, box): the group index of every position, groups 0..n-1 */
  structure?: number[][];
  /** how time enters: 'add' to the input (default) or 'adaln' in every block (DiT) */
  conditioning?: Conditioning;
  /** rotary position embedding in attention instead of learned absolute positions */
  rotary?: boolean;
  /** 'dense' (default); 'peers' or 'typed': attention restricted to the structure's relations */
  attention?: AttentionKind;
  /** weight-tied looping: the blocks applied this many times (default 1) */
  loops?: number;
  /** the forward pass's compute precision (precision.ts; default float32) */
  precision?: Precision;
}

export class Denoiser extends nn.Module {
  readonly anchors: Anchors;
  readonly inProj: nn.Linear;
  readonly time: TimeEmbedding;
  readonly structure: nn.Embedding[];
  readonly backbone: Backbone;
  readonly #groups: Tensor[]; // per structure: [L] int64
  readonly anchorFlag: Tensor; // [width]
  /** learned hazard weights w(a) (app:e2e-hazard), when the run learns them */
  readonly hazard: LearnedHazard | null;

  constructor(
    readonly config: DenoiserConfig,
    gen: TorchGenerator,
    anchorValues?: Tensor,
    learnedHazard?: LearnedHazardKind,
  ) {
    super();
    const c = config;
    this.anchors = this.child(
      'anchors',
      new Anchors(c.classes, c.anchorDim, c.anchors, { gen, values: anchorValues }),
    );
    this.inProj = this.child('in_proj', new nn.Linear(c.anchorDim, c.width, { gen }));
    this.time = this.child('time', new TimeEmbedding(c.width, gen));
    this.anchorFlag = this.param(
      'anchor_flag',
      tidy(() => gen.randn([c.width]).mul(0.02)),
    );
    this.structure = (c.structure ?? []).map((g, k) => {
      if (g.length !== c.length)
        throw new Error(`structure ${k}: ${g.length} group indices for length ${c.length}`);
      return this.child(
        `structure.${k}`,
        new nn.Embedding(maxOf(g) + 1, c.width, { gen, std: EMBED_STD }),
      );
    });
    this.#groups = (c.structure ?? []).map((g) => keep(tensor(g, [g.length], 'int64'))); // derived, not state
    this.backbone = this.child(
      'backbone',
      new Backbone(
        {
          length: c.length,
          dim: c.width,
          depth: c.depth,
          heads: c.heads,
          mlpHidden: c.mlpHidden,
          classes: c.classes,
          dropout: c.dropout,
          posStd: EMBED_STD,
          conditioning: c.conditioning,
          rotary: c.rotary,
          attention: c.attention,
          relations: c.structure,
          loops: c.loops,
        },
        gen,
      ),
    );
    // last, and drawing nothing: the other weights are those of a run without it
    this.hazard = learnedHazard
      ? this.child('hazard', new LearnedHazard(learnedHazard, c.classes))
      : null;
  }

  /** The parameters that are lookup tables (anchors, positions, structure, w), not linear maps. */
  tables(): Tensor[] {
    return [
      ...this.anchors.parameters(),
      ...(this.hazard?.parameters() ?? []),
      ...this.structure.flatMap((e) => e.parameters()),
      ...(this.backbone.pos?.parameters() ?? []),
    ];
  }

  /**
   * y [B, L, d], t [B], onAnchor [B, L] bool -> logits [B, L, K]. onAnchor marks the positions
   * whose y is exactly an anchor (stuck or committed): a function of y (anchors are atoms, the
   * continuous part never hits them), handed over explicitly because a network cannot test
   * exact equality; a learned vector is added there.
   */
  forward(y: Tensor, t: Tensor, onAnchor?: Tensor): Tensor {
    return atPrecision(this.config.precision, () => {
      const { h, c } = this.#embed(y, t, onAnchor);
      return this.backbone.forward(h, c);
    });
  }

  /** forward's logits after every weight-tied loop: [loops] x [B, L, K] (deep supervision). */
  forwardEachLoop(y: Tensor, t: Tensor, onAnchor?: Tensor): Tensor[] {
    return atPrecision(this.config.precision, () => {
      const { h, c } = this.#embed(y, t, onAnchor);
      return this.backbone.forwardEachLoop(h, c);
    });
  }

  /** The backbone's input h [B, L, width] and, for adaLN, its conditioning vector c [B, width]. */
  #embed(y: Tensor, t: Tensor, onAnchor?: Tensor): { h: Tensor; c?: Tensor } {
    const c = this.time.forward(t); // [B, width]
    const adaln = this.config.conditioning === 'adaln';
    let h = this.inProj.forward(y); // [B, L, width]
    if (!adaln) h = h.add(c.unsqueeze(1));
    if (onAnchor) h = h.add(onAnchor.unsqueeze(-1).to('float32').mul(this.anchorFlag)); // + [width] where on an anchor
    this.structure.forEach((emb, k) => {
      h = h.add(emb.forward(this.#groups[k]!)); // + [L, width]
    });
    return { h, c: adaln ? c : undefined };
  }
}
