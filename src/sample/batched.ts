// The batched sampling loop every task shares: `n` sequences drawn from a trained denoiser in
// chunks of `batchSize` through the one driver; the anchors are read once, the chunk starting
// at sequence `start` is seeded `seed + start` (so a sequence does not depend on how many come
// after it), and the trajectory of the first chunk is recorded when asked.
import { type Network as Model, networkLength } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import { type Tensor, tidy } from '../torch/index.js';
import { type SampleOptions, sample, type TrajectoryStep } from './driver.js';
import { modelDenoiser } from './model-denoiser.js';

export interface BatchedSampleOptions
  extends Omit<
    SampleOptions,
    'process' | 'denoiser' | 'anchors' | 'batch' | 'length' | 'condition' | 'record'
  > {
  n: number; // sequences in all
  batchSize: number;
  /** The conditioned positions of sequences start..start+size-1: tokens and mask [size, L]. */
  condition?: (start: number, size: number) => { tokens: Tensor; mask: Tensor };
  record?: boolean; // the trajectory of the first chunk
}

export interface BatchedSampleResult {
  rows: number[][]; // [n][L] token ids
  nfe: number; // classifier evaluations spent per sequence (the most any sequence took)
  rowNfe: number[]; // [n] the evaluations each sequence took part in
  trajectory?: TrajectoryStep[];
}

export function sampleInBatches(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
): BatchedSampleResult {
  if (!(Number.isInteger(o.batchSize) && o.batchSize >= 1))
    throw new Error(`batch size must be a positive integer, got ${o.batchSize}`);
  const { n, batchSize, condition, record, seed, ...rest } = o;
  const L = networkLength(model);
  const rows: number[][] = [];
  let nfe = 0;
  const rowNfe: number[] = [];
  let trajectory: TrajectoryStep[] | undefined;
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  try {
    for (let start = 0; start < n; start += batchSize) {
      const B = Math.min(batchSize, n - start);
      tidy(() => {
        const r = sample({
          ...rest,
          process: proc,
          denoiser: modelDenoiser(model),
          anchors,
          batch: B,
          length: L,
          seed: seed + start,
          condition: condition?.(start, B),
          record: record === true && start === 0,
        });
        if (r.trajectory) trajectory = r.trajectory;
        nfe = Math.max(nfe, ...r.rowNfe);
        rowNfe.push(...r.rowNfe);
        const tokens = r.tokens.toArray(); // [B * L]
        for (let b = 0; b < B; b++) rows.push(tokens.slice(b * L, (b + 1) * L));
      });
    }
  } finally {
    anchors.dispose();
  }
  return { rows, nfe, rowNfe, trajectory };
}
