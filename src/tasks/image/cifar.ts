// CIFAR-10's binary batches (the paper's image data set, app:cifar10-imagenet), read as an image
// set: each file a run of 3,073-byte records, one label byte (0..9) and the 32 x 32 image as
// three planes of 1,024 bytes (red, green, blue), which is the set's own [C, H, W] order.
// data_batch_1.bin .. data_batch_5.bin are the training split (50,000 images), test_batch.bin
// the test split (10,000). A folder (or its cifar-10-batches-bin/) or one .bin file is read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ImageSet, LoadOptions, Split } from './dataset.js';
import { reduceLevels } from './levels.js';

export const CIFAR_SIDE = 32;
export const CIFAR_CLASSES = 10;
const PIXELS = 3 * CIFAR_SIDE * CIFAR_SIDE;
/** One record: the label byte and the three colour planes. */
export const CIFAR_RECORD = 1 + PIXELS;

const TRAIN = /^data_batch_\d+\.bin$/;
const TEST = /^test_batch\.bin$/;

/** Whether `path` is CIFAR-10 binary data: a .bin batch, or a folder that holds batches. */
export function isCifar10(path: string): boolean {
  if (!existsSync(path)) return false;
  if (!statSync(path).isDirectory()) return /\.bin$/.test(path);
  const dir = existsSync(join(path, 'cifar-10-batches-bin'))
    ? join(path, 'cifar-10-batches-bin')
    : path;
  return readdirSync(dir).some((f) => TRAIN.test(f) || TEST.test(f));
}

/** The batch files of a split: those of a folder in name order, or one file as given. */
export function cifarFiles(path: string, split: Split): string[] {
  if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
  if (!statSync(path).isDirectory()) return [path];
  const dir = existsSync(join(path, 'cifar-10-batches-bin'))
    ? join(path, 'cifar-10-batches-bin')
    : path;
  const want = split === 'train' ? TRAIN : TEST;
  const files = readdirSync(dir)
    .filter((f) => want.test(f))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((f) => join(dir, f));
  if (files.length === 0)
    throw new Error(
      `${path}: no CIFAR-10 ${split} batches (${split === 'train' ? 'data_batch_N.bin' : 'test_batch.bin'})`,
    );
  return files;
}

/** The largest batch file read (CIFAR-10's are 30 MB; one file is read into memory whole). */
const MAX_BATCH_BYTES = 2 ** 30;

/** CIFAR-10 batches as an image set [n, 3, 32, 32] with labels 0..9 (levels: a power of two). */
export function readCifar10(files: string[], { levels = 256, limit }: LoadOptions = {}): ImageSet {
  const parts: Buffer[] = [];
  let n = 0;
  for (const f of files) {
    if (limit !== undefined && n >= limit) break;
    const size = statSync(f).size; // before reading: a file past 2 GiB failed without its name
    if (size > MAX_BATCH_BYTES)
      throw new Error(
        `${f}: ${(size / 2 ** 30).toFixed(1)} GB; a CIFAR-10 batch file holds 10,000 images in ${((10_000 * CIFAR_RECORD) / 2 ** 20).toFixed(1)} MB (at most ${MAX_BATCH_BYTES / 2 ** 30} GB a file is read)`,
      );
    const buf = readFileSync(f);
    if (buf.length === 0 || buf.length % CIFAR_RECORD !== 0)
      throw new Error(
        `${f}: ${buf.length} bytes, not a whole number of CIFAR-10 records (${CIFAR_RECORD} bytes each)`,
      );
    const records = Math.min(buf.length / CIFAR_RECORD, (limit ?? Number.POSITIVE_INFINITY) - n);
    for (let r = 0; r < records; r++) {
      const label = buf[r * CIFAR_RECORD]!;
      if (label >= CIFAR_CLASSES)
        throw new Error(
          `${basename(f)}: byte ${r * CIFAR_RECORD} (record ${r}) is label ${label}, not 0..9: not a CIFAR-10 batch`,
        );
    }
    parts.push(buf.subarray(0, records * CIFAR_RECORD));
    n += records;
  }
  const images = new Uint8Array(n * PIXELS); // [n, 3, 32, 32]
  const labels = new Uint8Array(n);
  let i = 0;
  for (const p of parts)
    for (let r = 0; r < p.length / CIFAR_RECORD; r++, i++) {
      labels[i] = p[r * CIFAR_RECORD]!;
      images.set(p.subarray(r * CIFAR_RECORD + 1, (r + 1) * CIFAR_RECORD), i * PIXELS);
    }
  return {
    images: reduceLevels(images, levels),
    labels,
    n,
    channels: 3,
    height: CIFAR_SIDE,
    width: CIFAR_SIDE,
    levels,
  };
}
