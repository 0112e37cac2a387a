// Unconditional text sampling (app:text8): Alg. 2 on a cosine grid for the hybrid and blended
// processes, MDLM's ancestral sampler for the masked preset, in batches (sample/batched.ts);
// tokens to strings; one batch can be taken step by step for streaming.
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
import { decode } from './corpus.js';

export interface TextSampleOptions {
  n: number;
  nfe: number;
  temperature?: number;
  topP?: number;
  seed: number;
  sampler?: string; // default: 'mdlm' for the masked preset, else 'sjd'
  grid?: GridKind;
  batch?: number;
  record?: boolean; // trajectory of the first batch
}

/** The batched sampler's options for `o`. */
function textSampling(proc: SJDProcess, o: TextSampleOptions): BatchedSampleOptions {
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

export function sampleText(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): { texts: string[]; trajectory?: TrajectoryStep[] } {
  const { rows, trajectory } = sampleInBatches(model, proc, textSampling(proc, o));
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
  const { rows, nfe } = yield* sampleBatchSteps(model, proc, textSampling(proc, o));
  return { texts: rows.map((r) => decode(r)), nfe };
}
