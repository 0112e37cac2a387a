// Unconditional image sampling (app:cifar10-imagenet): Alg. 2 on a cosine grid for the hybrid
// and blurred processes, MDLM's ancestral sampler for the masked preset, in batches
// (sampling/batched.ts), with top-p where asked (the paper's MD4 baseline samples at 0.98); the
// pixel-space baselines by their own samplers (pixel/sample.ts: DDPM's ancestral step, Bit
// Diffusion's DDIM); tokens back to images [n, C, H, W] (tokens.ts); one batch can be taken
// step by step for streaming.
import type { Network } from '../../model/network.js';
import { pixelSampleSteps } from '../../pixel/index.js';
import type { SJDProcess } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import {
  drain,
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
  type UnconditionalOptions,
  unconditionalSampling,
} from '../../sampling/index.js';
import { type AnyImageModel, isPixelImageModel, type PixelImageModel } from './image-model.js';
import { type ImageGeometry, imageShape, imagesOf } from './tokens.js';

/** Images' sampling defaults (the commands', the page's and sampleImages'): the library's. */
export const IMAGE_SAMPLING: SamplingDefaults = { ...SAMPLING_DEFAULTS };

/** An image run's options: those of every unconditional run (sampling/batched.ts). */
export type ImageSampleOptions = UnconditionalOptions;

export interface ImageSamples {
  images: Uint8Array; // [n, C, H, W] levels
  nfe: number;
  trajectory?: TrajectoryStep[]; // over tokens [B, L] of the first batch
}

export function sampleImages(
  model: Network,
  proc: SJDProcess,
  g: ImageGeometry,
  o: ImageSampleOptions,
): ImageSamples {
  const { rows, nfe, trajectory } = sampleInBatches(
    model,
    proc,
    unconditionalSampling(proc, o, IMAGE_SAMPLING),
  );
  return { images: imagesOf(rows.flat(), o.n, g), nfe, trajectory };
}

/** The sampler a model runs under `o`: its process's own for the pixel-space ones. */
export function imageSamplerOf(m: AnyImageModel, o: { sampler?: SamplerName }): string {
  return isPixelImageModel(m)
    ? m.diffusion.sampler
    : (o.sampler ?? IMAGE_SAMPLING.sampler(m.process));
}

/**
 * The pixel-space options of a run: its process's sampler only, and neither temperature nor
 * top-p (a Gaussian step draws no categorical); refused in one line otherwise.
 */
function pixelOptions(m: PixelImageModel, o: ImageSampleOptions) {
  const d = m.diffusion;
  if (o.sampler !== undefined && o.sampler !== d.sampler)
    throw new Error(
      `a ${d.name} model samples by its own ${d.sampler} step, not the '${o.sampler}' sampler`,
    );
  if (
    (o.temperature !== undefined && o.temperature !== 1) ||
    (o.topP !== undefined && o.topP !== 1)
  )
    throw new Error(`a ${d.name} model draws no categorical: temperature and top-p must be 1`);
  const { n, seed, batch, progress } = o;
  return { n, nfe: o.nfe ?? IMAGE_SAMPLING.nfe(), seed, batch, progress };
}

/** Images from a model of any process. */
export function sampleAnyImages(m: AnyImageModel, o: ImageSampleOptions): ImageSamples {
  const g = m.geometry;
  if (!isPixelImageModel(m)) return sampleImages(m.model, m.process, g, o);
  const L = imageShape(g).length;
  const watch = o.record ? 'first' : 'none';
  const run = pixelSampleSteps(m.model, m.diffusion, L, pixelOptions(m, o), watch);
  const { rows, nfe, trajectory } = drain(run, o.record === true);
  return { images: imagesOf(rows.flat(), o.n, g), nfe, trajectory };
}

/**
 * At most one batch of images step by step (the web page's stream): yields each
 * sampler step over the tokens [n, L] and returns what sampleImages returns for the same options.
 */
export function* sampleImageSteps(
  model: Network,
  proc: SJDProcess,
  g: ImageGeometry,
  o: ImageSampleOptions,
): Generator<TrajectoryStep, ImageSamples> {
  const { rows, nfe } = yield* sampleBatchSteps(
    model,
    proc,
    unconditionalSampling(proc, o, IMAGE_SAMPLING),
  );
  return { images: imagesOf(rows.flat(), o.n, g), nfe };
}
