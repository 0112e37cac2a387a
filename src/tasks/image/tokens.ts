// Images as token sequences (app:cifar10-imagenet: one token per channel per site, L = H W C).
// The sequence runs over sites in raster order with the channels of a site together, token
// index (row * W + col) * C + channel: the layout of the blur W (process/blend.ts grid2d) and of
// the U-Net's feature map (model/unet.ts). Image sets store [n, C, H, W] (dataset.ts).
import type { BlendShape } from '../../process/index.js';
import type { TaskShape } from '../../train/index.js';
import type { ImageSet } from './dataset.js';

/** An image's size and token levels: what loading a model needs (saved in its config). */
export interface ImageGeometry {
  height: number;
  width: number;
  channels: number;
  levels: number; // K
}

export const geometryOf = (s: ImageSet): ImageGeometry => ({
  height: s.height,
  width: s.width,
  channels: s.channels,
  levels: s.levels,
});

export const describeGeometry = (g: ImageGeometry): string =>
  `${g.height} x ${g.width} x ${g.channels}, ${g.levels} levels`;

/** The positions the blur acts on: the pixel grid and its channels. */
export function imageBlendShape(g: ImageGeometry): BlendShape {
  const { height, width, channels } = g;
  return { length: height * width * channels, grid: { height, width, channels } };
}

/** The image task's shape from its geometry. */
export function imageShape(g: ImageGeometry): TaskShape {
  return {
    name: 'image',
    length: g.height * g.width * g.channels,
    classes: g.levels,
    blendShape: imageBlendShape(g),
  };
}

/** images [n, C, H, W] -> tokens [n, H W C] (site-major, channels of a site together). */
export function tokensOf(s: ImageSet): Uint8Array {
  const { n, channels: C, height: H, width: W } = s;
  const out = new Uint8Array(n * H * W * C);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < C; c++)
      for (let p = 0; p < H * W; p++)
        out[(i * H * W + p) * C + c] = s.images[(i * C + c) * H * W + p]!;
  return out;
}

/** tokens [n, H W C] -> images [n, C, H, W] (the inverse of tokensOf). */
export function imagesOf(tokens: ArrayLike<number>, n: number, g: ImageGeometry): Uint8Array {
  const { channels: C, height: H, width: W } = g;
  if (tokens.length !== n * H * W * C)
    throw new Error(`${tokens.length} tokens are not ${n} images of ${describeGeometry(g)}`);
  const out = new Uint8Array(n * C * H * W);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < C; c++)
      for (let p = 0; p < H * W; p++)
        out[(i * C + c) * H * W + p] = tokens[(i * H * W + p) * C + c]!;
  return out;
}
