// The image denoiser P_theta(a | y, t) (sec:classifier, app:cifar10-imagenet): a small ADM U-Net
// (Dhariwal & Nichol; unet-layers.ts) over the pixel grid. The state y [B, L, d] of L = H W C
// tokens (token index (row * W + col) * C + channel, as blend.ts's grid) is laid out as a feature
// map of C d channels, plus one channel per image channel that flags the tokens on an anchor
// (stuck or committed; see denoiser.ts); the U-Net's zero-initialised output convolution gives
// C K channels: the per-site classifier head over the K levels, logits [B, L, K].
import { cat, nn, type Tensor, type TorchGenerator, zeros } from '../torch/index.js';
import { type AnchorMode, Anchors } from './anchors.js';
import { atPrecision } from './precision.js';
import { UNetLayers, type UNetSize } from './unet-layers.js';

export interface UNetConfig extends UNetSize {
  height: number;
  width: number;
  channels: number; // C: image channels (1 gray, 3 colour)
  classes: number; // K levels
  anchorDim: number; // d
  anchors: AnchorMode;
}

export class UNetDenoiser extends nn.Module {
  readonly anchors: Anchors;
  readonly layers: UNetLayers;

  constructor(
    readonly config: UNetConfig,
    gen: TorchGenerator,
    anchorValues?: Tensor,
  ) {
    super();
    const c = config;
    this.anchors = this.child(
      'anchors',
      new Anchors(c.classes, c.anchorDim, c.anchors, { gen, values: anchorValues }),
    );
    this.layers = new UNetLayers(
      (name, m) => this.child(name, m),
      { ...c, inChannels: c.channels * (c.anchorDim + 1), outChannels: c.channels * c.classes },
      gen,
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
    // contiguous: the permuted input would carry a channels-last layout through every layer
    const input = cat([state.to('float32'), flags], 1).contiguous(); // [B, C (d + 1), H, W]
    // [B, C K, H, W] stored channels-last (unet-layers.ts): the logits below are a view, K contiguous
    const out = atPrecision(this.config.precision, () => this.layers.forward(input, t));
    return out
      .reshape([B, C, K, H, W])
      .permute([0, 3, 4, 1, 2])
      .reshape([B, H * W * C, K]);
  }
}
