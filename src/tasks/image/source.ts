// Where the image task's images come from: an image-set file written by `sjd data images`
// (file.ts), or else Debian's Fashion-MNIST (dataset.ts) at the chosen grey levels. A
// resumed or loaded run checks that its images have the geometry its config was built for.

import { heldOutItems, parseHoldOut } from '../common/hold-out.js';
import { type ImageSet, loadFashionMnist, type Split } from './dataset.js';
import { loadImageSet } from './file.js';
import { describeGeometry, geometryOf, type ImageGeometry } from './tokens.js';

/** An image set and where it came from, as messages name it. */
export interface Sourced {
  set: ImageSet;
  source: string;
}

/** The image set at `path`, or the Fashion-MNIST `split` at `levels` (default 256). */
export function imagesOrFashion(
  path: string | undefined,
  split: Split,
  o: { levels?: number; limit?: number } = {},
): Sourced {
  if (path === undefined) {
    const set = loadFashionMnist(split, undefined, o);
    return { set, source: `Fashion-MNIST ${split}` };
  }
  const set = loadImageSet(path);
  if (o.levels !== undefined && o.levels !== set.levels)
    throw new Error(
      `${path} has ${set.levels} levels, not ${o.levels} (--levels applies to Fashion-MNIST; make the file with sjd data images --levels)`,
    );
  return { set: firstImages(set, o.limit), source: path };
}

/** The first `limit` images of `set` (all where `limit` is absent or not below its size). */
export function firstImages(set: ImageSet, limit?: number): ImageSet {
  if (limit === undefined || limit >= set.n) return set;
  const per = set.channels * set.height * set.width;
  return {
    ...set,
    n: limit,
    images: set.images.subarray(0, limit * per),
    labels: set.labels ? set.labels.subarray(0, limit) : null,
  };
}

/** Refuses images whose geometry differs from the run's, in one line. */
export function checkGeometry(set: ImageSet, want: ImageGeometry, source: string): void {
  const a = describeGeometry(geometryOf(set));
  const b = describeGeometry(want);
  if (a !== b) throw new Error(`${source}: images are ${a}; the run was built for ${b}`);
}

/** The images of `set` whose index passes `keep`, in order. */
function pick(set: ImageSet, keep: (i: number) => boolean): ImageSet {
  const per = set.channels * set.height * set.width;
  const idx = Array.from({ length: set.n }, (_, i) => i).filter(keep);
  const images = new Uint8Array(idx.length * per);
  idx.forEach((i, k) => {
    images.set(set.images.subarray(i * per, (i + 1) * per), k * per);
  });
  const labels = set.labels ? Uint8Array.from(idx, (i) => set.labels![i]!) : null;
  return { ...set, n: idx.length, images, labels };
}

/**
 * `set` (from `source`) split into the images to train on and those `holdOut` keeps for the
 * evaluation (tasks/common/hold-out.ts): spread through the set, so every class of a set stored
 * class by class is held out in proportion.
 */
export function holdOutImages(
  set: ImageSet,
  holdOut: string,
  source: string,
): { train: ImageSet; held: ImageSet } {
  const held = heldOutItems(set.n, parseHoldOut(holdOut), `images of ${source}`);
  return { train: pick(set, (i) => !held(i)), held: pick(set, held) };
}
