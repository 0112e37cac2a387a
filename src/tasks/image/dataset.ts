// Image sets for the image task (the paper's image experiments, app:cifar10-imagenet): images as
// discrete tokens, one per channel per pixel in (c, h, w) order, with optional class labels; and
// Fashion-MNIST (Debian's dataset-fashion-mnist: 60,000 train and 10,000 test grey 28x28 images of
// 10 classes) read from its idx files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type IdxArray, readIdx } from './idx.js';
import { reduceLevels } from './levels.js';

export interface ImageSet {
  images: Uint8Array; // [n, channels, height, width] row-major, levels 0..levels-1: the tokens
  labels: Uint8Array | null; // [n] class ids, or null for an unlabelled set
  n: number;
  channels: number;
  height: number;
  width: number;
  levels: number; // token values per channel (256: raw bytes)
}

/** Where Debian's dataset-fashion-mnist installs the idx files. */
export const FASHION_MNIST_DIR = '/usr/share/datasets/fashion-mnist';

export type Split = 'train' | 'test';
export const SPLITS: readonly Split[] = ['train', 'test'];

export interface LoadOptions {
  levels?: number; // a power of two from 2 to 256 (default 256)
  limit?: number; // the first N images (default all)
}

/** Reads `${stem}` gzipped or raw from `dir`. */
function readPart(dir: string, stem: string): IdxArray {
  for (const name of [`${stem}.gz`, stem]) {
    const path = join(dir, name);
    if (existsSync(path)) return readIdx(path);
  }
  throw new Error(`${dir} has no ${stem}(.gz)`);
}

/** Refuses a set whose fields disagree (sizes, ranges), in one line naming `source`. */
export function checkImageSet(set: ImageSet, source: string): void {
  const { n, channels, height, width, levels } = set;
  const size = n * channels * height * width;
  if (set.images.length !== size)
    throw new Error(
      `${source}: ${set.images.length} image values, expected ${n}x${channels}x${height}x${width} = ${size}`,
    );
  if (set.labels && set.labels.length !== n)
    throw new Error(`${source}: ${set.labels.length} labels for ${n} images`);
  const i = set.images.findIndex((v) => v >= levels);
  if (i >= 0)
    throw new Error(
      `${source}: value ${set.images[i]} at ${i} is out of range for ${levels} levels`,
    );
}

/** Fashion-MNIST's classes (labels 0..9; the feature network's outputs). */
export const FASHION_CLASSES = 10;

/** The Fashion-MNIST split as an ImageSet [n, 1, 28, 28] with labels 0..9. */
export function loadFashionMnist(
  split: Split,
  dir = FASHION_MNIST_DIR,
  { levels = 256, limit }: LoadOptions = {},
): ImageSet {
  if (!SPLITS.includes(split))
    throw new Error(`unknown split '${split}'; expected one of ${SPLITS.join(', ')}`);
  if (!existsSync(dir))
    throw new Error(
      `no Fashion-MNIST at ${dir}; install Debian's dataset-fashion-mnist (apt install dataset-fashion-mnist)`,
    );
  const prefix = split === 'train' ? 'train' : 't10k';
  const images = readPart(dir, `${prefix}-images-idx3-ubyte`);
  const labels = readPart(dir, `${prefix}-labels-idx1-ubyte`);
  if (images.type !== 'ubyte' || images.dims.length !== 3)
    throw new Error(`${dir}: ${prefix} images are not unsigned bytes [N, H, W]`);
  if (labels.type !== 'ubyte' || labels.dims.length !== 1)
    throw new Error(`${dir}: ${prefix} labels are not unsigned bytes [N]`);
  const [count, height, width] = images.dims as [number, number, number];
  if (labels.dims[0] !== count)
    throw new Error(`${dir}: ${count} ${prefix} images but ${labels.dims[0]} labels`);
  const bad = labels.data.findIndex((v) => v >= FASHION_CLASSES);
  if (bad >= 0)
    throw new Error(
      `${dir}: ${prefix} label ${labels.data[bad]} at ${bad} is out of range for ${FASHION_CLASSES} classes`,
    );
  const n = Math.min(count, limit ?? count);
  return {
    images: reduceLevels(images.data.subarray(0, n * height * width), levels),
    labels: labels.data.slice(0, n),
    n,
    channels: 1,
    height,
    width,
    levels,
  };
}
