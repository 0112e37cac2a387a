// The images a run is scored on (scores.ts), drawn a batch at a time, each finished batch
// kept beside the run (samples-nfeN.partial.json) until the NFE is scored, so that a scoring
// stopped mid-way resumes at the batch it was on. A batch drawn alone is the batch one run would
// draw: the batch starting at image `start` is seeded seed + start (sampling/batched.ts,
// pixel/sample.ts). At 256 levels one NFE of one run can take hours on one CPU thread.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BATCH } from '../../sampling/index.js';
import type { AnyImageModel } from '../../tasks/image/load.js';
import { type ImageSampleOptions, sampleAnyImages } from '../../tasks/image/sample.js';
import { imageShape } from '../../tasks/image/tokens.js';
import { readCache, writeCache } from '../../util/cache.js';

/** Where a run keeps the batches drawn so far at `nfe`. */
export const partialSamplesFile = (dir: string, nfe: number): string =>
  join(dir, `samples-nfe${nfe}.partial.json`);

/**
 * `o.n` images [n, C, H, W] levels of the model in run `dir` at `o.nfe`, resuming from the batches
 * kept under `key` (what the images depend on besides the NFE); `progress` is told the images done.
 */
export function resumableSamples(
  m: AnyImageModel,
  dir: string,
  key: unknown,
  o: ImageSampleOptions & { nfe: number },
  progress?: (done: number) => void,
): Uint8Array {
  const file = partialSamplesFile(dir, o.nfe);
  const fileKey = { key, n: o.n, nfe: o.nfe, seed: o.seed, batch: o.batch ?? DEFAULT_BATCH };
  const per = imageShape(m.geometry).length; // levels an image
  const kept = readCache<string>(file, fileKey);
  const out = new Uint8Array(o.n * per);
  let done = 0;
  if (kept !== undefined) {
    const bytes = Buffer.from(kept, 'base64');
    if (bytes.length % (fileKey.batch * per) === 0 && bytes.length < out.length) {
      out.set(bytes);
      done = bytes.length / per;
      progress?.(done);
    }
  }
  while (done < o.n) {
    const size = Math.min(fileKey.batch, o.n - done);
    const r = sampleAnyImages(m, { ...o, n: size, seed: o.seed + done, batch: fileKey.batch });
    out.set(r.images, done * per);
    done += size;
    if (done < o.n)
      writeCache(file, fileKey, Buffer.from(out.subarray(0, done * per)).toString('base64'));
    progress?.(done);
  }
  return out;
}

/** Drops the batches kept at `nfe` once its scores are written. */
export function dropPartialSamples(dir: string, nfe: number): void {
  rmSync(partialSamplesFile(dir, nfe), { force: true });
}
