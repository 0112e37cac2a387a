// The pixel-space regressor of the Gaussian image baselines of tab:cifar10_fid (app:cifar10-
// imagenet: DDPM on the "2D" ADM variant, Bit Diffusion on the image-token one; pixel/): the ADM
// U-Net of unet-layers.ts reading x [B, L, D], D numbers a token (one scaled value for DDPM,
// the analog bits for Bit Diffusion), laid out as a feature map of C D channels, and giving
// the same shape back (DDPM's epsilon, Bit Diffusion's x0). No anchors, no flags: there is no
// sticking in these processes.
import { nn, type Tensor, type TorchGenerator } from '../torch/index.js';
import { atPrecision } from './precision.js';
import { UNetLayers, type UNetSize } from './unet-layers.js';

export interface UNetRegressorConfig extends UNetSize {
  height: number;
  width: number;
  channels: number; // C: image channels
  dim: number; // D: numbers a token, in and out
}

export class UNetRegressor extends nn.Module {
  readonly layers: UNetLayers;

  constructor(
    readonly config: UNetRegressorConfig,
    gen: TorchGenerator,
  ) {
    super();
    const c = config;
    const channels = c.channels * c.dim;
    this.layers = new UNetLayers(
      (name, m) => this.child(name, m),
      { ...c, inChannels: channels, outChannels: channels },
      gen,
    );
  }

  /** No lookup tables: every matrix is weight-decayed as a linear map. */
  tables(): Tensor[] {
    return [];
  }

  /** x [B, L, D], t [B] -> [B, L, D] */
  forward(x: Tensor, t: Tensor): Tensor {
    const { height: H, width: W, channels: C, dim: D } = this.config;
    const B = x.size(0);
    if (x.size(1) !== H * W * C || x.size(2) !== D)
      throw new Error(`unet: input [${x.shape}] for a ${H} x ${W} x ${C} image of ${D} a token`);
    const input = x
      .to('float32')
      .reshape([B, H, W, C * D])
      .permute([0, 3, 1, 2])
      .contiguous(); // [B, C D, H, W]
    return atPrecision(this.config.precision, () => this.layers.forward(input, t)) // [B, C D, H, W]
      .permute([0, 2, 3, 1])
      .reshape([B, H * W * C, D]);
  }
}
