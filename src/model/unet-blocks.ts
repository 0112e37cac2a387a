// The blocks of the ADM U-Net (app:cifar10-imagenet: the paper's image backbone, Dhariwal &
// Nichol's ADM, here at a small size): a residual block with GroupNorm, SiLU and the time embedding
// added between its two 3x3 convolutions (the second zero-initialised, so each block starts as the
// identity); self-attention over the pixels of a feature map; a stride-2 convolution down and a
// nearest-neighbour upsampling plus convolution up.
import {
  dropout,
  nn,
  type Tensor,
  type TorchGenerator,
  upsampleNearest2d,
} from '../torch/index.js';

/** The largest number of groups <= 32 that divides `channels` (ADM uses 32). */
export function groupsFor(channels: number): number {
  for (let g = Math.min(32, channels); g > 1; g--) if (channels % g === 0) return g;
  return 1;
}

export class ResBlock extends nn.Module {
  readonly norm1: nn.GroupNorm;
  readonly conv1: nn.Conv2d;
  readonly emb: nn.Linear;
  readonly norm2: nn.GroupNorm;
  readonly conv2: nn.Conv2d;
  readonly skip: nn.Conv2d | null; // 1x1 when the channel count changes

  constructor(
    readonly inChannels: number,
    readonly outChannels: number,
    embDim: number,
    readonly dropoutP: number,
    readonly gen: TorchGenerator,
  ) {
    super();
    this.norm1 = this.child('norm1', new nn.GroupNorm(groupsFor(inChannels), inChannels));
    this.conv1 = this.child('conv1', new nn.Conv2d(inChannels, outChannels, 3, { gen }));
    this.emb = this.child('emb', new nn.Linear(embDim, outChannels, { gen }));
    this.norm2 = this.child('norm2', new nn.GroupNorm(groupsFor(outChannels), outChannels));
    this.conv2 = this.child(
      'conv2',
      new nn.Conv2d(outChannels, outChannels, 3, { gen, zero: true }),
    );
    this.skip =
      inChannels === outChannels
        ? null
        : this.child('skip', new nn.Conv2d(inChannels, outChannels, 1, { gen }));
  }

  /** x [B, in, H, W], emb [B, embDim] (already through SiLU) -> [B, out, H, W] */
  forward(x: Tensor, emb: Tensor): Tensor {
    let h = this.conv1.forward(this.norm1.forward(x).silu()); // [B, out, H, W]
    h = h.add(this.emb.forward(emb).unsqueeze(-1).unsqueeze(-1)); // + [B, out, 1, 1]
    h = dropout(this.norm2.forward(h).silu(), this.dropoutP, this.training, this.gen);
    h = this.conv2.forward(h);
    return (this.skip ? this.skip.forward(x) : x).add(h);
  }
}

export class AttentionBlock extends nn.Module {
  readonly norm: nn.GroupNorm;
  readonly attn: nn.MultiHeadSelfAttention;

  constructor(
    readonly channels: number,
    heads: number,
    gen: TorchGenerator,
  ) {
    super();
    this.norm = this.child('norm', new nn.GroupNorm(groupsFor(channels), channels));
    this.attn = this.child('attn', new nn.MultiHeadSelfAttention(channels, heads, 0, gen));
  }

  /** x [B, C, H, W] -> [B, C, H, W]: every pixel attends to every pixel. */
  forward(x: Tensor): Tensor {
    const [B, C, H, W] = x.shape as [number, number, number, number];
    const seq = this.norm
      .forward(x)
      .reshape([B, C, H * W])
      .transpose(1, 2); // [B, HW, C]
    const out = this.attn.forward(seq).transpose(1, 2).reshape([B, C, H, W]);
    return x.add(out);
  }
}

export class Downsample extends nn.Module {
  readonly conv: nn.Conv2d;
  constructor(channels: number, gen: TorchGenerator) {
    super();
    this.conv = this.child('conv', new nn.Conv2d(channels, channels, 3, { stride: 2, gen }));
  }
  /** x [B, C, H, W] -> [B, C, ceil(H/2), ceil(W/2)] */
  forward(x: Tensor): Tensor {
    return this.conv.forward(x);
  }
}

export class Upsample extends nn.Module {
  readonly conv: nn.Conv2d;
  constructor(channels: number, gen: TorchGenerator) {
    super();
    this.conv = this.child('conv', new nn.Conv2d(channels, channels, 3, { gen }));
  }
  /** x [B, C, h, w] -> [B, C, H, W] (the size of the skip it meets) */
  forward(x: Tensor, height: number, width: number): Tensor {
    return this.conv.forward(upsampleNearest2d(x, height, width));
  }
}
