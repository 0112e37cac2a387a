// Unconditional image sampling (app:cifar10-imagenet): Alg. 2 on a cosine grid for the hybrid
// and blurred processes, MDLM's ancestral sampler for the masked preset, in batches
// (sample/batched.ts), with top-p where asked (the paper's MD4 baseline samples at 0.98);
// tokens back to images [n, C, H, W] (tokens.ts); one batch can be taken
// step by step for streaming.
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  type BatchedSampleOptions,
  defaultSampler,
  type GridKind,
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
} from '../../sampling/index.js';
import { type ImageGeometry, imagesOf } from './tokens.js';

export interface ImageSampleOptions {
  n: number;
  nfe: number;
  temperature?: number;
  /** nucleus (top-p) truncation of every categorical draw; 1 keeps the whole distribution */
  topP?: number;
  seed: number;
  sampler?: string; // default: 'mdlm' for the masked preset, else 'sjd'
  grid?: GridKind;
  batch?: number;
  record?: boolean; // the trajectory of the first batch
}

export interface ImageSamples {
  images: Uint8Array; // [n, C, H, W] levels
  nfe: number;
  trajectory?: TrajectoryStep[]; // over tokens [B, L] of the first batch
}

/** The batched sampler's options for `o`. */
function imageSampling(proc: SJDProcess, o: ImageSampleOptions): BatchedSampleOptions {
  return {
    n: o.n,
    batchSize: o.batch ?? 64,
    sampler: o.sampler ?? defaultSampler(proc),
    nfe: o.nfe,
    temperature: o.temperature ?? 1,
    topP: o.topP ?? 1,
    grid: o.grid ?? 'cosine',
    seed: o.seed,
    record: o.record,
  };
}

export function sampleImages(
  model: Network,
  proc: SJDProcess,
  g: ImageGeometry,
  o: ImageSampleOptions,
): ImageSamples {
  const { rows, nfe, trajectory } = sampleInBatches(model, proc, imageSampling(proc, o));
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
  const { rows, nfe } = yield* sampleBatchSteps(model, proc, imageSampling(proc, o));
  return { images: imagesOf(rows.flat(), o.n, g), nfe };
}
