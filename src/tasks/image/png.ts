// Pictures of images for people: a grid of samples, and a trace strip showing the same samples at
// several times of the reverse process, where committed pixels (stuck to an anchor) show their
// level and pixels still moving show in red by how far their state is from the origin |y| — so one
// sees pixels stick. PNG bytes through pngjs.
import type { PNG as PngClass } from 'pngjs';
import type { TrajectoryStep } from '../../sampling/index.js';
import { maxOf } from '../../util/fold.js';
import { lazyRequire } from '../../util/lazy-require.js';
import { expandLevels } from './levels.js';
import { type ImageGeometry, imagesOf } from './tokens.js';

const pngjs = lazyRequire<{ PNG: typeof PngClass }>('pngjs');

/** RGBA pixels of a canvas [height, width, 4], white. */
interface Canvas {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const canvas = (width: number, height: number): Canvas => ({
  width,
  height,
  rgba: new Uint8Array(width * height * 4).fill(255),
});

function put(c: Canvas, x: number, y: number, r: number, g: number, b: number): void {
  const k = (y * c.width + x) * 4;
  c.rgba[k] = r;
  c.rgba[k + 1] = g;
  c.rgba[k + 2] = b;
  c.rgba[k + 3] = 255;
}

function encode(c: Canvas): Buffer {
  const png = new (pngjs().PNG)({ width: c.width, height: c.height });
  png.data = Buffer.from(c.rgba);
  return pngjs().PNG.sync.write(png);
}

/** Byte value of image i's pixel (x, y) in channel ch, from images [n, C, H, W] bytes. */
const at = (bytes: Uint8Array, g: ImageGeometry, i: number, ch: number, x: number, y: number) =>
  bytes[((i * g.channels + ch) * g.height + y) * g.width + x]!;

/** The colour of a pixel: grey for one channel, RGB for three (others: the first channel). */
function colour(bytes: Uint8Array, g: ImageGeometry, i: number, x: number, y: number) {
  if (g.channels === 3)
    return [0, 1, 2].map((ch) => at(bytes, g, i, ch, x, y)) as [number, number, number];
  const v = at(bytes, g, i, 0, x, y);
  return [v, v, v] as [number, number, number];
}

/** images [n, C, H, W] levels -> a PNG of `cols` columns, each image `scale` x, 2-pixel gaps. */
export function gridPng(
  images: Uint8Array,
  n: number,
  g: ImageGeometry,
  o: { cols?: number; scale?: number } = {},
): Buffer {
  const cols = Math.max(1, Math.min(o.cols ?? Math.ceil(Math.sqrt(n)), n));
  const rows = Math.ceil(n / cols);
  const s = o.scale ?? 2;
  const [cw, ch] = [g.width * s + 2, g.height * s + 2];
  const c = canvas(cols * cw + 2, rows * ch + 2);
  const bytes = expandLevels(images, g.levels);
  for (let i = 0; i < n; i++) {
    const [ox, oy] = [2 + (i % cols) * cw, 2 + Math.floor(i / cols) * ch];
    for (let y = 0; y < g.height * s; y++)
      for (let x = 0; x < g.width * s; x++)
        put(c, ox + x, oy + y, ...colour(bytes, g, i, Math.floor(x / s), Math.floor(y / s)));
  }
  return encode(c);
}

/**
 * The trace: one row per sample (the first `n` of the recorded batch), one column per chosen
 * step of the trajectory (`frames` evenly spaced, the last included). A pixel is committed when
 * all its channels are; a moving pixel is red with intensity min(1, |y| / yMax) over its channels.
 */
export function tracePng(
  trajectory: TrajectoryStep[],
  n: number,
  g: ImageGeometry,
  o: { frames?: number; scale?: number } = {},
): Buffer {
  if (trajectory.length === 0) throw new Error('trace: the sampler recorded no steps');
  const L = g.height * g.width * g.channels;
  const B = trajectory[0]!.committed.length / L;
  const rowsN = Math.min(n, B);
  const frames = Math.min(o.frames ?? 8, trajectory.length);
  const pick = Array.from({ length: frames }, (_, f) =>
    Math.round((f * (trajectory.length - 1)) / Math.max(frames - 1, 1)),
  );
  const s = o.scale ?? 2;
  const [cw, chh] = [g.width * s + 2, g.height * s + 2];
  const c = canvas(frames * cw + 2, rowsN * chh + 2);
  const yMax = trajectory.reduce((m, st) => maxOf(st.yNorm, m), 1e-12);
  pick.forEach((k, f) => {
    const st = trajectory[k]!;
    const levels = Uint8Array.from(st.tokens, (v) => Math.max(v, 0));
    const bytes = expandLevels(imagesOf(levels.subarray(0, rowsN * L), rowsN, g), g.levels);
    const done = imagesOf(st.committed.subarray(0, rowsN * L), rowsN, g);
    const norm = imagesOf(
      Uint8Array.from(st.yNorm.subarray(0, rowsN * L), (v) =>
        Math.round((255 * Math.min(v, yMax)) / yMax),
      ),
      rowsN,
      g,
    );
    for (let i = 0; i < rowsN; i++) {
      const [ox, oy] = [2 + f * cw, 2 + i * chh];
      for (let y = 0; y < g.height * s; y++)
        for (let x = 0; x < g.width * s; x++) {
          const [px, py] = [Math.floor(x / s), Math.floor(y / s)];
          const stuck = [...Array(g.channels).keys()].every(
            (ch) => at(done, g, i, ch, px, py) === 1,
          );
          if (stuck) put(c, ox + x, oy + y, ...colour(bytes, g, i, px, py));
          else {
            let r = 0;
            for (let ch = 0; ch < g.channels; ch++) r = Math.max(r, at(norm, g, i, ch, px, py));
            put(c, ox + x, oy + y, 80 + Math.round((r * 175) / 255), 0, 0);
          }
        }
    }
  });
  return encode(c);
}
