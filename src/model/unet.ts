// The image denoiser P_theta(a | y, t) (sec:classifier, app:cifar10-imagenet): a small ADM U-Net
// (Dhariwal & Nichol) over the pixel grid. The state y [B, L, d] of L = H W C tokens (token
// index (row * W + col) * C + channel, as blend.ts's grid) is laid out as a feature map of C d
// channels, plus one channel per image channel that flags the tokens on an anchor (stuck or
// committed; see denoiser.ts); a 3x3 convolution in, residual blocks with the time embedding at
// each resolution (ResBlock), self-attention at the lowest, stride-2 convolutions down and
// nearest upsampling up with skip connections, and a zero-initialised 3x3 convolution out to
// C K channels: the per-site classifier head over the K levels, logits [B, L, K].
import { cat, type Generator, nn, type Tensor, zeros } from '../torch/index.js';
import { type AnchorMode, Anchors } from './anchors.js';
import { TimeEmbedding } from './time-embedding.js';
import { AttentionBlock, Downsample, groupsFor, ResBlock, Upsample } from './unet-blocks.js';

export interface UNetConfig {
  height: number;
  width: number;
  channels: number; // C: image channels (1 gray, 3 colour)
  classes: number; // K levels
  anchorDim: number; // d
  anchors: AnchorMode;
  base: number; // feature channels at full resolution
  mults: number[]; // per resolution level: channels = base * mult; a stride-2 step between levels
  blocks: number; // residual blocks per level (the decoder has one more, as ADM)
  heads: number; // self-attention heads at the lowest resolution
  dropout?: number;
}

export class UNetDenoiser extends nn.Module {
  readonly anchors: Anchors;
  readonly time: TimeEmbedding;
  readonly inConv: nn.Conv2d;
  readonly down: (ResBlock | AttentionBlock | Downsample)[][];
  readonly mid: [ResBlock, AttentionBlock, ResBlock];
  readonly up: (ResBlock | AttentionBlock | Upsample)[][];
  readonly outNorm: nn.GroupNorm;
  readonly outConv: nn.Conv2d;

  constructor(
    readonly config: UNetConfig,
    gen: Generator,
    anchorValues?: Tensor,
  ) {
    super();
    const c = config;
    if (c.mults.length < 1 || !c.mults.every((m) => Number.isInteger(m) && m >= 1))
      throw new Error(`unet: mults must be whole numbers >= 1, got [${c.mults}]`);
    if (!(Number.isInteger(c.blocks) && c.blocks >= 1))
      throw new Error(`unet: blocks must be a whole number >= 1, got ${c.blocks}`);
    const lowest = c.base * c.mults.at(-1)!;
    if (lowest % c.heads !== 0)
      throw new Error(
        `unet: ${lowest} channels at the lowest level do not split into ${c.heads} heads`,
      );
    const p = c.dropout ?? 0;
    const emb = 4 * c.base;
    this.anchors = this.child(
      'anchors',
      new Anchors(c.classes, c.anchorDim, c.anchors, { gen, values: anchorValues }),
    );
    this.time = this.child('time', new TimeEmbedding(emb, gen));
    this.inConv = this.child(
      'in_conv',
      new nn.Conv2d(c.channels * (c.anchorDim + 1), c.base, 3, { gen }),
    );
    const last = c.mults.length - 1;
    const skips: number[] = [c.base]; // channels of each skip, in the order they are pushed
    let ch = c.base;
    this.down = c.mults.map((m, level) => {
      const stage: (ResBlock | AttentionBlock | Downsample)[] = [];
      for (let b = 0; b < c.blocks; b++) {
        stage.push(new ResBlock(ch, c.base * m, emb, p, gen));
        ch = c.base * m;
        if (level === last) stage.push(new AttentionBlock(ch, c.heads, gen));
        skips.push(ch);
      }
      if (level < last) {
        stage.push(new Downsample(ch, gen));
        skips.push(ch);
      }
      return stage.map((mod, k) => this.child(`down.${level}.${k}`, mod));
    });
    this.mid = [
      this.child('mid.0', new ResBlock(ch, ch, emb, p, gen)),
      this.child('mid.1', new AttentionBlock(ch, c.heads, gen)),
      this.child('mid.2', new ResBlock(ch, ch, emb, p, gen)),
    ];
    this.up = [...c.mults.keys()].reverse().map((level) => {
      const m = c.mults[level]!;
      const stage: (ResBlock | AttentionBlock | Upsample)[] = [];
      for (let b = 0; b <= c.blocks; b++) {
        stage.push(new ResBlock(ch + skips.pop()!, c.base * m, emb, p, gen));
        ch = c.base * m;
        if (level === last) stage.push(new AttentionBlock(ch, c.heads, gen));
      }
      if (level > 0) stage.push(new Upsample(ch, gen));
      return stage.map((mod, k) => this.child(`up.${level}.${k}`, mod));
    });
    this.outNorm = this.child('out_norm', new nn.GroupNorm(groupsFor(ch), ch));
    this.outConv = this.child(
      'out_conv',
      new nn.Conv2d(ch, c.channels * c.classes, 3, { gen, zero: true }),
    );
  }

  /** The parameters that are lookup tables (the anchors), not weight-decayed. */
  tables(): Tensor[] {
    return this.anchors.parameters();
  }

  /** y [B, L, d], t [B], onAnchor [B, L] bool -> logits [B, L, K] */
  forward(y: Tensor, t: Tensor, onAnchor?: Tensor): Tensor {
    const { height: H, width: W, channels: C, anchorDim: d, classes: K } = this.config;
    const B = y.size(0);
    if (y.size(1) !== H * W * C)
      throw new Error(`unet: ${y.size(1)} tokens for a ${H} x ${W} x ${C} image`);
    const state = y.reshape([B, H, W, C * d]).permute([0, 3, 1, 2]); // [B, C d, H, W]
    const flag = onAnchor ? onAnchor.to('float32') : zeros([B, H * W * C]); // [B, L]
    const flags = flag.reshape([B, H, W, C]).permute([0, 3, 1, 2]); // [B, C, H, W]
    const emb = this.time.forward(t).silu(); // [B, 4 base]
    // contiguous: the permuted input would carry a channels-last layout through every layer
    const input = cat([state.to('float32'), flags], 1).contiguous(); // [B, C (d + 1), H, W]
    let h = this.inConv.forward(input); // [B, base, H, W]
    const skips: Tensor[] = [h];
    for (const stage of this.down)
      stage.forEach((mod, k) => {
        h = mod instanceof ResBlock ? mod.forward(h, emb) : mod.forward(h);
        // a skip after each residual unit (a block and its attention) and each downsampling
        if (!(stage[k + 1] instanceof AttentionBlock)) skips.push(h);
      });
    h = this.mid[2].forward(this.mid[1].forward(this.mid[0].forward(h, emb)), emb);
    for (const stage of this.up)
      for (const mod of stage) {
        if (mod instanceof ResBlock) h = mod.forward(cat([h, skips.pop()!], 1), emb);
        else if (mod instanceof Upsample) {
          const next = skips.at(-1)!;
          h = mod.forward(h, next.size(2), next.size(3));
        } else h = mod.forward(h);
      }
    const out = this.outConv.forward(this.outNorm.forward(h).silu()); // [B, C K, H, W]
    return out
      .reshape([B, C, K, H, W])
      .permute([0, 3, 4, 1, 2])
      .reshape([B, H * W * C, K]);
  }
}
