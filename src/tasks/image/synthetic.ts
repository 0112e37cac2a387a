// A small deterministic synthetic image set for tests and for colour (several channels) support
// of the image task (the paper's image experiments, app:cifar10-imagenet, are on colour
// images): each image is one smooth pattern (a Gaussian blob, sinusoidal stripes, a ring)
// at a random place, scale and angle, its label the pattern kind, each channel the pattern
// scaled by a random gain (a tint). Seeded with pure-rand's xoroshiro128plus, as the Sudoku
// generator is: the same options give the same bytes.
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import type { ImageSet } from './dataset.js';
import { reduceLevels } from './levels.js';

/** Pattern kinds; an image's label is its kind's index. */
export const SYNTHETIC_KINDS = ['blob', 'stripes', 'ring'] as const;

export interface SyntheticOptions {
  n: number;
  channels?: number; // default 3
  height?: number; // default 16
  width?: number; // default 16
  levels?: number; // default 256
  seed?: number; // default 0
}

/** Intensity in [0, 1] of pixel (y, x) for one random pattern of `kind`. */
function pattern(rng: RandomGenerator, kind: number, h: number, w: number) {
  const u = (a: number, b: number) => a + (b - a) * uniformFloat64(rng);
  const [cy, cx] = [u(0, h - 1), u(0, w - 1)];
  const side = Math.min(h, w);
  if (kind === 0) {
    const s2 = 2 * u(0.1, 0.3) ** 2 * side * side;
    return (y: number, x: number) => Math.exp(-((y - cy) ** 2 + (x - cx) ** 2) / s2);
  }
  if (kind === 1) {
    const [angle, period, phase] = [u(0, Math.PI), u(3, 8), u(0, 2 * Math.PI)];
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    return (y: number, x: number) =>
      0.5 + 0.5 * Math.sin((2 * Math.PI * (x * c + y * s)) / period + phase);
  }
  const [r, width2] = [u(0.15, 0.35) * side, 2 * u(0.7, 1.5) ** 2];
  return (y: number, x: number) => Math.exp(-((Math.hypot(y - cy, x - cx) - r) ** 2) / width2);
}

/** `n` images [n, channels, height, width] with labels [n] (kind i % 3 for image i). */
export function syntheticImages(o: SyntheticOptions): ImageSet {
  const { n, channels = 3, height = 16, width = 16, levels = 256, seed = 0 } = o;
  for (const [k, v] of Object.entries({ n, channels, height, width }))
    if (!Number.isInteger(v) || v < 1) throw new Error(`${k} must be a positive integer, got ${v}`);
  const rng = xoroshiro128plus(seed);
  const plane = height * width;
  const bytes = new Uint8Array(n * channels * plane); // [n, channels, height, width]
  const labels = new Uint8Array(n); // [n]
  for (let i = 0; i < n; i++) {
    labels[i] = i % SYNTHETIC_KINDS.length;
    const f = pattern(rng, labels[i]!, height, width);
    const gains = Array.from({ length: channels }, () => 0.3 + 0.7 * uniformFloat64(rng));
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = f(y, x);
        for (let c = 0; c < channels; c++)
          bytes[(i * channels + c) * plane + y * width + x] = Math.min(255, 256 * gains[c]! * v);
      }
  }
  return {
    images: reduceLevels(bytes, levels),
    labels,
    n,
    channels,
    height,
    width,
    levels,
  };
}
