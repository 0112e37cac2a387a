// Unconditional text sampling (app:text8): Alg. 2 on a cosine grid for the hybrid and blended
// processes, MDLM's ancestral sampler for the masked preset, in batches (sampling/batched.ts);
// tokens to strings; one batch can be taken step by step for streaming.
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
  type UnconditionalOptions,
  unconditionalSampling,
} from '../../sampling/index.js';
import { decode } from './corpus.js';

/** A text run's options: those of every unconditional run (sampling/batched.ts). */
export type TextSampleOptions = UnconditionalOptions;

export function sampleText(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): { texts: string[]; trajectory?: TrajectoryStep[] } {
  const { rows, trajectory } = sampleInBatches(model, proc, unconditionalSampling(proc, o));
  return { texts: rows.map((r) => decode(r)), trajectory };
}

/**
 * At most one batch of samples step by step (the web page's stream, issue #15): yields each
 * sampler step over the n * L characters and returns the texts sampleText gives for the same
 * options (so `sjd sample text` with the same seed prints them).
 */
export function* sampleTextSteps(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): Generator<TrajectoryStep, { texts: string[]; nfe: number }> {
  const { rows, nfe } = yield* sampleBatchSteps(model, proc, unconditionalSampling(proc, o));
  return { texts: rows.map((r) => decode(r)), nfe };
}
