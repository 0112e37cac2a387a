// An image set in one file (the paper's image experiments, app:cifar10-imagenet): a safetensors
// file (torch/safetensors.ts; Python's `safetensors` reads it) with `images`, uint8 [n, channels,
// height, width] tokens in 0..levels-1, `labels`, uint8 [n] when the set has them, and string
// metadata: format 'sjd-images', levels, and where the set came from.
import { readFileSync } from 'node:fs';
import { fromBytes } from '../../torch/factories.js';
import { decodeSafetensors, saveSafetensors } from '../../torch/safetensors.js';
import { tidy } from '../../torch/scope.js';
import { fsReason } from '../../util/atomic.js';
import { checkImageSet, type ImageSet } from './dataset.js';
import { checkLevels } from './levels.js';

const FORMAT = 'sjd-images';

/** Writes `set` atomically to `path`; `source` says where it came from (kept in the metadata). */
export function saveImageSet(path: string, set: ImageSet, source: string): void {
  checkImageSet(set, path);
  tidy(() => {
    const { n, channels, height, width } = set;
    const tensors = { images: fromBytes(set.images, 'uint8', [n, channels, height, width]) };
    if (set.labels) Object.assign(tensors, { labels: fromBytes(set.labels, 'uint8', [n]) });
    saveSafetensors(path, tensors, { format: FORMAT, levels: String(set.levels), source });
  });
}

/** Reads an image set written by saveImageSet; errors are one line naming the file. */
export function loadImageSet(path: string): ImageSet & { source: string } {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    throw new Error(`cannot read ${path}: ${fsReason(e)}`);
  }
  return tidy(() => {
    const { tensors, metadata } = decodeSafetensors(buf, path);
    if (metadata.format !== FORMAT) throw new Error(`${path}: not an image set written by sjd`);
    const levels = Number(metadata.levels);
    try {
      checkLevels(levels);
    } catch (e) {
      throw new Error(`${path}: ${(e as Error).message}`);
    }
    const { images, labels } = tensors;
    if (images?.dtype !== 'uint8' || images.ndim !== 4)
      throw new Error(`${path}: 'images' is not a uint8 [n, channels, height, width] tensor`);
    if (labels && (labels.dtype !== 'uint8' || labels.ndim !== 1))
      throw new Error(`${path}: 'labels' is not a uint8 [n] tensor`);
    const [n, channels, height, width] = images.shape as [number, number, number, number];
    const set = {
      images: images.data() as Uint8Array,
      labels: labels ? (labels.data() as Uint8Array) : null,
      n,
      channels,
      height,
      width,
      levels,
      source: metadata.source ?? '',
    };
    checkImageSet(set, path);
    return set;
  });
}
