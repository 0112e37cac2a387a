// A run's scores in the image comparison (comparison.ts): how each model is sampled
// (MDLM's ancestral sampler with MD4's top-p for masked models, the pixel-space baselines by their
// own step, the chosen sampler for the rest), and its scores at each NFE sampled and cached beside
// it (scores.json), each NFE kept as it is scored and its images a batch at a time
// (partial-samples.ts), so a stopped scoring resumes where it was.
import { join } from 'node:path';
import { isPixelProcess } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { type ImageScores, scoreImages } from '../../tasks/image/evaluate.js';
import { loadAnyImageModel } from '../../tasks/image/load.js';
import { readCache, writeCache } from '../../util/cache.js';
import { throttle } from '../../util/throttle.js';
import type { ImageCompareOptions } from './options.js';
import { dropPartialSamples, resumableSamples } from './partial-samples.js';

/** The top-p of the paper's masked image baseline (MD4), `--masked-top-p`'s default. */
export const MD4_TOP_P = 0.98;

/**
 * How a model is sampled: MDLM's ancestral sampler with top-p for masked models, the pixel-space
 * baselines by their own step (DDPM's ancestral, Bit Diffusion's DDIM), else `o.sampler` with
 * `o.topP`.
 */
export const samplingOf = (
  name: string,
  o: ImageCompareOptions,
): { sampler?: SamplerName; topP?: number } =>
  name === 'masked'
    ? { sampler: 'mdlm', topP: o.maskedTopP }
    : isPixelProcess(name)
      ? {}
      : { sampler: o.sampler, topP: o.topP };

/**
 * A run's score cache: `scores.json` at its model's default top-p (MD4's for masked models, 1 for
 * the others), `scores-top-pP.json` at another, so that comparisons at several top-p keep theirs.
 */
function scoresFile(dir: string, name: string, o: ImageCompareOptions): string {
  const { topP } = samplingOf(name, o);
  const usual = name === 'masked' ? MD4_TOP_P : 1;
  return join(
    dir,
    topP === undefined || topP === usual ? 'scores.json' : `scores-top-p${topP}.json`,
  );
}

/** A run's cached scores by NFE (empty where none are cached for this N, step and sampling). */
export function cachedScores(dir: string, name: string, o: ImageCompareOptions) {
  const key = { n: o.n, steps: o.steps, features: o.features.path, ...samplingOf(name, o) };
  const scores = readCache<Record<number, ImageScores>>(scoresFile(dir, name, o), key) ?? {};
  return { key, scores, missing: o.nfes.filter((k) => !scores[k]) };
}

/**
 * Scores of one run at every NFE, from its cache when it has them for this N, step and sampling
 * (a cache with some NFEs only, from a stopped scoring, is completed).
 */
export function runScores(
  dir: string,
  name: string,
  o: ImageCompareOptions,
  log?: (line: string) => void,
): Record<number, ImageScores> {
  const cache = scoresFile(dir, name, o);
  const { key, scores, missing } = cachedScores(dir, name, o);
  if (missing.length > 0) {
    const m = loadAnyImageModel(dir);
    for (const nfe of missing) {
      log?.(`${dir}: sampling ${o.n} images at NFE ${nfe} to score`);
      const said = throttle((d: number) => log?.(`${dir}: ${d} of ${o.n} images at NFE ${nfe}`));
      const sampling = { n: o.n, nfe, seed: 0, ...samplingOf(name, o) };
      const images = resumableSamples(m, dir, key, sampling, said);
      scores[nfe] = scoreImages(o.features.net, images, o.n, o.train, o.test);
      writeCache(cache, key, scores); // each NFE kept as it is scored, its images a batch at a time
      dropPartialSamples(dir, nfe);
    }
  }
  return scores;
}
