// The layers of the ADM U-Net (app:cifar10-imagenet; Dhariwal & Nichol), shared by the SJD image
// classifier (unet.ts: logits over K levels a site) and the pixel-space regressor of DDPM and Bit
// Diffusion (unet-regressor.ts: a vector a site). A 3x3 convolution in, residual blocks with the
// time embedding at each resolution (ResBlock), self-attention after each residual block at the
// resolutions `attention` names (by downsampling factor; the lowest by default) and in the middle, stride-2
// convolutions down and nearest upsampling up with skip connections, and a zero-initialised 3x3
// convolution out. The layers register on the module that owns them (`register`), so their
// parameters keep the owner's names (time, in_conv, down.*, mid.*, up.*, out_norm, out_conv).
import { cat, nn, type Tensor, type TorchGenerator } from '../torch/index.js';
import type { Precision } from './precision.js';
import { TimeEmbedding } from './time-embedding.js';
import { AttentionBlock, Downsample, groupsFor, ResBlock, Upsample } from './unet-blocks.js';

/** The U-Net's size, as a run's config names it. */
export interface UNetSize {
  base: number; // feature channels at full resolution
  mults: number[]; // per resolution level: channels = base * mult; a stride-2 step between levels
  blocks: number; // residual blocks per level (the decoder has one more, as ADM)
  heads: number; // self-attention heads
  /**
   * the downsampling factors (1 at full resolution, 2 after one stride-2 step, ...) of the levels
   * with self-attention after each residual block, as ADM's attention resolutions; default: the
   * lowest level only (the paper's CIFAR-10 U-Net: [2, 4])
   */
  attention?: number[];
  dropout?: number;
  precision?: Precision; // the forward pass's compute precision (precision.ts; default float32)
}

type Register = <M extends nn.Module>(name: string, m: M) => M;

/**
 * Checks a U-Net's size (its levels' multipliers, blocks, attention factors, heads); returns
 * whether a level attends (by default the lowest).
 */
function attentionLevels(c: UNetSize): (level: number) => boolean {
  if (c.mults.length < 1 || !c.mults.every((m) => Number.isInteger(m) && m >= 1))
    throw new Error(`unet: mults must be whole numbers >= 1, got [${c.mults}]`);
  if (!(Number.isInteger(c.blocks) && c.blocks >= 1))
    throw new Error(`unet: blocks must be a whole number >= 1, got ${c.blocks}`);
  const last = c.mults.length - 1;
  const factors = c.attention ?? [2 ** last];
  for (const f of factors)
    if (!c.mults.some((_, level) => 2 ** level === f))
      throw new Error(
        `unet: attention at downsampling factor ${f}: the levels have ${c.mults.map((_, l) => 2 ** l).join(', ')}`,
      );
  const attends = (level: number) => factors.includes(2 ** level);
  for (const [level, m] of [...c.mults.entries(), [last, c.mults.at(-1)!] as const])
    if ((attends(level) || level === last) && (c.base * m) % c.heads !== 0)
      throw new Error(
        `unet: ${c.base * m} channels at ${level === last ? 'the lowest level' : `level ${level}`} do not split into ${c.heads} heads`,
      );
  return attends;
}

export class UNetLayers {
  readonly time: TimeEmbedding;
  readonly inConv: nn.Conv2d;
  readonly down: (ResBlock | AttentionBlock | Downsample)[][];
  readonly mid: [ResBlock, AttentionBlock, ResBlock];
  readonly up: (ResBlock | AttentionBlock | Upsample)[][];
  readonly outNorm: nn.GroupNorm;
  readonly outConv: nn.Conv2d;

  constructor(
    register: Register,
    c: UNetSize & { inChannels: number; outChannels: number },
    gen: TorchGenerator,
  ) {
    const attends = attentionLevels(c);
    const last = c.mults.length - 1;
    const p = c.dropout ?? 0;
    const emb = 4 * c.base;
    this.time = register('time', new TimeEmbedding(emb, gen));
    this.inConv = register('in_conv', new nn.Conv2d(c.inChannels, c.base, 3, { gen }));
    const skips: number[] = [c.base]; // channels of each skip, in the order they are pushed
    let ch = c.base;
    this.down = c.mults.map((m, level) => {
      const stage: (ResBlock | AttentionBlock | Downsample)[] = [];
      for (let b = 0; b < c.blocks; b++) {
        stage.push(new ResBlock(ch, c.base * m, emb, p, gen));
        ch = c.base * m;
        if (attends(level)) stage.push(new AttentionBlock(ch, c.heads, gen));
        skips.push(ch);
      }
      if (level < last) {
        stage.push(new Downsample(ch, gen));
        skips.push(ch);
      }
      return stage.map((mod, k) => register(`down.${level}.${k}`, mod));
    });
    this.mid = [
      register('mid.0', new ResBlock(ch, ch, emb, p, gen)),
      register('mid.1', new AttentionBlock(ch, c.heads, gen)),
      register('mid.2', new ResBlock(ch, ch, emb, p, gen)),
    ];
    this.up = [...c.mults.keys()].reverse().map((level) => {
      const m = c.mults[level]!;
      const stage: (ResBlock | AttentionBlock | Upsample)[] = [];
      for (let b = 0; b <= c.blocks; b++) {
        stage.push(new ResBlock(ch + skips.pop()!, c.base * m, emb, p, gen));
        ch = c.base * m;
        if (attends(level)) stage.push(new AttentionBlock(ch, c.heads, gen));
      }
      if (level > 0) stage.push(new Upsample(ch, gen));
      return stage.map((mod, k) => register(`up.${level}.${k}`, mod));
    });
    this.outNorm = register('out_norm', new nn.GroupNorm(groupsFor(ch), ch));
    // channels-last: the out convolution is most of a pass at 256 levels (32 to 256 channels
    // a colour), and its output then reads as logits [B, L, K] with K contiguous (unet.ts)
    const out = { gen, zero: true, channelsLast: true };
    this.outConv = register('out_conv', new nn.Conv2d(ch, c.outChannels, 3, out));
  }

  /** input [B, inChannels, H, W] (contiguous), t [B] -> [B, outChannels, H, W] */
  forward(input: Tensor, t: Tensor): Tensor {
    const emb = this.time.forward(t).silu(); // [B, 4 base]
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
    return this.outConv.forward(this.outNorm.forward(h).silu()); // [B, outChannels, H, W] channels-last
  }
}
