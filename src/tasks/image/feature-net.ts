// The feature network of the image metrics: no Inception network can be had here, so the Fréchet
// distance and KID (frechet.ts) are computed in the penultimate layer of a small convolutional
// classifier trained here on the labelled training images (feature-train.ts): three 3x3
// convolutions (32, 64, 128 channels, GroupNorm, SiLU; 2x2 average pooling after the first two),
// global average pooling to the features, and a linear head to the classes. Input:
// images [B, C, H, W] as float in [0, 1] (levels expanded to 0..255, then / 255).
import { avgPool2d, nn, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';
import { expandLevels } from './levels.js';

export interface FeatureNetConfig {
  channels: number;
  height: number;
  width: number;
  classes: number;
}

export const FEATURE_DIM = 128;

export class FeatureNet extends nn.Module {
  readonly convs: nn.Conv2d[];
  readonly norms: nn.GroupNorm[];
  readonly head: nn.Linear;

  constructor(
    readonly config: FeatureNetConfig,
    gen: TorchGenerator,
  ) {
    super();
    const widths = [config.channels, 32, 64, FEATURE_DIM];
    this.convs = widths
      .slice(1)
      .map((w, k) => this.child(`conv${k}`, new nn.Conv2d(widths[k]!, w, 3, { gen })));
    this.norms = widths.slice(1).map((w, k) => this.child(`norm${k}`, new nn.GroupNorm(8, w)));
    this.head = this.child('head', new nn.Linear(FEATURE_DIM, config.classes, { gen }));
  }

  /** x [B, C, H, W] in [0, 1] -> features [B, FEATURE_DIM] */
  features(x: Tensor): Tensor {
    let h = x;
    this.convs.forEach((conv, k) => {
      h = this.norms[k]!.forward(conv.forward(h)).silu();
      if (k < 2) h = avgPool2d(h, 2);
    });
    return h.mean([2, 3]); // [B, FEATURE_DIM]
  }

  /** x [B, C, H, W] in [0, 1] -> logits [B, classes] */
  forward(x: Tensor): Tensor {
    return this.head.forward(this.features(x));
  }
}

/** images [n, C, H, W] at `levels` -> float [n, C, H, W] in [0, 1], the network's input. */
export function networkInput(
  images: Uint8Array,
  n: number,
  g: { channels: number; height: number; width: number; levels: number },
): Tensor {
  const bytes = expandLevels(images, g.levels);
  return tensor(bytes, [n, g.channels, g.height, g.width], 'uint8').to('float32').div(255);
}
