// Where the image task's images come from: an image-set file written by `sjd data images`
// (file.ts), or else Debian's Fashion-MNIST (dataset.ts) at the chosen grey levels. A
// resumed or loaded run checks that its images have the geometry its config was built for.

import { type ImageSet, loadFashionMnist, type Split } from './dataset.js';
import { loadImageSet } from './file.js';
import { describeGeometry, geometryOf, type ImageGeometry } from './tokens.js';

/** The image set at `path`, or the Fashion-MNIST `split` at `levels` (default 256). */
export function imagesOrFashion(
  path: string | undefined,
  split: Split,
  o: { levels?: number; limit?: number } = {},
): { set: ImageSet; source: string } {
  if (path === undefined) {
    const set = loadFashionMnist(split, undefined, o);
    return { set, source: `Fashion-MNIST ${split}` };
  }
  const set = loadImageSet(path);
  if (o.levels !== undefined && o.levels !== set.levels)
    throw new Error(
      `${path} has ${set.levels} levels, not ${o.levels} (--levels applies to Fashion-MNIST; make the file with sjd data images --levels)`,
    );
  if (o.limit !== undefined && o.limit < set.n) {
    const per = set.channels * set.height * set.width;
    return {
      set: {
        ...set,
        n: o.limit,
        images: set.images.subarray(0, o.limit * per),
        labels: set.labels ? set.labels.subarray(0, o.limit) : null,
      },
      source: path,
    };
  }
  return { set, source: path };
}

/** Refuses images whose geometry differs from the run's, in one line. */
export function checkGeometry(set: ImageSet, want: ImageGeometry, source: string): void {
  const a = describeGeometry(geometryOf(set));
  const b = describeGeometry(want);
  if (a !== b) throw new Error(`${source}: images are ${a}; the run was built for ${b}`);
}
