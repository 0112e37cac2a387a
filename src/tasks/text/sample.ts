// Unconditional text sampling (app:text8): Alg. 2 on a cosine grid for the hybrid and blended
// processes, MDLM's ancestral sampler for the masked preset, in batches (sample/batched.ts);
// tokens to strings.
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  defaultSampler,
  type GridKind,
  sampleInBatches,
  type TrajectoryStep,
} from '../../sample/index.js';
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

export function sampleText(
  model: Network,
  proc: SJDProcess,
  o: TextSampleOptions,
): { texts: string[]; trajectory?: TrajectoryStep[] } {
  const { rows, trajectory } = sampleInBatches(model, proc, {
    n: o.n,
    batchSize: o.batch ?? 64,
    sampler: o.sampler ?? defaultSampler(proc),
    nfe: o.nfe,
    temperature: o.temperature ?? 1,
    topP: o.topP ?? 1,
    grid: o.grid ?? 'cosine',
    seed: o.seed,
    record: o.record,
  });
  return { texts: rows.map((r) => decode(r)), trajectory };
}
