// A folder of PNG, JPEG, WebP and TIFF files read as an image set, through sharp (libvips): decoded, resized
// to --size H x W by scaling to cover it and cropping the centre (or, without --size, all of the
// first image's size), in grey (1 channel) or RGB (3; the default when any image has colour),
// reduced to the set's levels, in file-name order. Labels follow the usual image-folder layout:
// images in class subfolders are labelled by the subfolders' sorted names; images directly in
// the folder are unlabelled. Errors name the file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type Sharp from 'sharp';
import { fsReason } from '../../util/atomic.js';
import { lazyRequire } from '../../util/lazy-require.js';
import type { ImageSet } from './dataset.js';
import { reduceLevels } from './levels.js';

const sharp = lazyRequire<typeof Sharp>('sharp');

/** The files read as images (what sharp decodes that photos come as); other files are not images. */
export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff'];

export interface FolderOptions {
  size?: [number, number]; // [height, width]; default: the first image's
  channels?: 1 | 3; // default: 3 when any image has colour, else 1
  levels?: number; // a power of two from 2 to 256 (default 256)
  limit?: number; // the first N images (in file-name order)
  progress?: (done: number, total: number) => void;
}

const isImage = (f: string) => IMAGE_EXTENSIONS.includes(extname(f).toLowerCase());

/** What `path` is (a link followed); a link to nothing is named, not a raw ENOENT. */
function kindOf(path: string): 'file' | 'folder' | 'other' {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'other';
  } catch (e) {
    // listed by its folder, gone when followed: a link to nothing
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${path}: a symbolic link to nothing; remove it or point it at an image`);
    throw new Error(`${path}: cannot read it (${fsReason(e)})`);
  }
}

const imagesIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => !f.startsWith('.') && isImage(f) && kindOf(join(dir, f)) === 'file')
    .sort()
    .map((f) => join(dir, f));

/** Whether `path` is a folder of images (directly, or in class subfolders). */
export function isImageFolder(path: string): boolean {
  if (!existsSync(path) || !statSync(path).isDirectory()) return false;
  return imagesIn(path).length > 0 || classFolders(path).length > 0;
}

function classFolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.') && kindOf(join(dir, f)) === 'folder')
    .filter((f) => imagesIn(join(dir, f)).length > 0)
    .sort();
}

/** The images of a folder with their labels (null: unlabelled) and the class names. */
export function folderLayout(dir: string): {
  files: string[];
  labels: number[] | null;
  classes: string[] | null;
} {
  const top = imagesIn(dir);
  const classes = classFolders(dir);
  if (top.length > 0 && classes.length > 0)
    throw new Error(
      `${dir} holds images both directly and in class folders (${classes[0]}/, ...): put them all in class folders, or none`,
    );
  if (classes.length > 256) throw new Error(`${dir}: ${classes.length} class folders; at most 256`);
  if (top.length > 0) return { files: top, labels: null, classes: null };
  if (classes.length === 0) throw new Error(`${dir}: no PNG or JPEG images in this folder`);
  const files: string[] = [];
  const labels: number[] = [];
  classes.forEach((c, k) => {
    for (const f of imagesIn(join(dir, c))) {
      files.push(f);
      labels.push(k);
    }
  });
  return { files, labels, classes };
}

/**
 * The pixels an image may have (8192 x 8192): libvips refuses a larger one from its header,
 * before decoding (three 16000 x 16000 PNGs of 746 KB each took 9.3 GB and 88 s, then failed).
 */
export const MAX_IMAGE_PIXELS = 2 ** 26;
/** The bytes an image set read from a folder may take in memory. */
export const MAX_SET_BYTES = 2 ** 32;

/** A decoded image: its channels in sharp's interleaved [H, W, C] bytes, and its size. */
async function decode(file: string, o: { size?: [number, number]; channels: 1 | 3 }) {
  try {
    let img = sharp()(file, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS }).removeAlpha();
    if (o.size)
      img = img.resize({ height: o.size[0], width: o.size[1], fit: 'cover', position: 'centre' });
    img = img.toColourspace(o.channels === 1 ? 'b-w' : 'srgb');
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== o.channels)
      throw new Error(`decoded to ${info.channels} channels, not ${o.channels}`);
    return { data, height: info.height, width: info.width };
  } catch (e) {
    const why = (e as Error).message.split('\n')[0]!;
    if (/pixel limit/i.test(why))
      throw new Error(
        `${file}: more than ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels (8192 x 8192); shrink it first`,
      );
    throw new Error(`${file}: not a readable image (${why})`);
  }
}

/** Whether any of the files has colour (sharp's header read: 3 or 4 channels). */
async function anyColour(files: string[]): Promise<boolean> {
  for (const f of files) {
    try {
      const m = await sharp()(f).metadata();
      if ((m.channels ?? 1) >= 3 && m.space !== 'b-w') return true;
    } catch (e) {
      throw new Error(`${f}: not a readable image (${(e as Error).message.split('\n')[0]})`);
    }
  }
  return false;
}

/** Images decoded at once (libvips runs them on its own threads). */
const AT_ONCE = 16;

/** The folder's images as an image set [n, C, H, W] (labels from class folders), and the classes. */
export async function readImageFolder(
  dir: string,
  o: FolderOptions = {},
): Promise<ImageSet & { classes: string[] | null }> {
  const layout = folderLayout(dir);
  const n = Math.min(layout.files.length, o.limit ?? layout.files.length);
  const files = layout.files.slice(0, n);
  const channels = o.channels ?? ((await anyColour(files)) ? 3 : 1);
  const first = await decode(files[0]!, { size: o.size, channels });
  const [height, width] = o.size ?? [first.height, first.width];
  const per = channels * height * width;
  if (n * per > MAX_SET_BYTES)
    throw new Error(
      `${dir}: ${n} images of ${channels} x ${height} x ${width} would take ${((n * per) / 2 ** 30).toFixed(1)} GB; at most ${MAX_SET_BYTES / 2 ** 30} GB: give --resize HxW, or --limit N`,
    );
  const images = new Uint8Array(n * per); // [n, C, H, W]
  for (let s = 0; s < n; s += AT_ONCE) {
    const batch = files.slice(s, s + AT_ONCE);
    // the first image is decoded once, above
    const decoded = await Promise.all(
      batch.map((f, j) => (s + j === 0 ? first : decode(f, { size: o.size, channels }))),
    );
    decoded.forEach((d, j) => {
      if (d.height !== height || d.width !== width)
        throw new Error(
          `${batch[j]}: ${d.height}x${d.width}, not ${height}x${width} as ${files[0]}; give --resize HxW to resize every image`,
        );
      const base = (s + j) * per;
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          for (let c = 0; c < channels; c++)
            images[base + (c * height + y) * width + x] = d.data[(y * width + x) * channels + c]!;
    });
    o.progress?.(Math.min(s + AT_ONCE, n), n);
  }
  const levels = o.levels ?? 256;
  return {
    images: reduceLevels(images, levels),
    labels: layout.labels ? Uint8Array.from(layout.labels.slice(0, n)) : null,
    n,
    channels,
    height,
    width,
    levels,
    classes: layout.classes,
  };
}
