// Unconditional image sampling (app:cifar10-imagenet): Alg. 2 on a cosine grid for the hybrid
// and blurred processes, MDLM's ancestral sampler for the masked preset, in batches
// (sampling/batched.ts), with top-p where asked (the paper's MD4 baseline samples at 0.98);
// tokens back to images [n, C, H, W] (tokens.ts); one batch can be taken
// step by step for streaming.
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
  type UnconditionalOptions,
  unconditionalSampling,
} from '../../sampling/index.js';
import { type ImageGeometry, imagesOf } from './tokens.js';

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
  const { rows, nfe, trajectory } = sampleInBatches(model, proc, unconditionalSampling(proc, o));
  return { images: imagesOf(rows.flat(), o.n, g), nfe, trajectory };
}

/**
 * At most one batch of images step by step (the web page's stream, issue #15): yields each
 * sampler step over the tokens [n, L] and returns what sampleImages returns for the same options.
 */
export function* sampleImageSteps(
  model: Network,
  proc: SJDProcess,
  g: ImageGeometry,
  o: ImageSampleOptions,
): Generator<TrajectoryStep, ImageSamples> {
  const { rows, nfe } = yield* sampleBatchSteps(model, proc, unconditionalSampling(proc, o));
  return { images: imagesOf(rows.flat(), o.n, g), nfe };
}
