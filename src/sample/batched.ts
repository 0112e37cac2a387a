// The batched sampling loop every task shares: `n` sequences drawn from a trained denoiser in
// chunks of `batchSize` through the one driver; the anchors are read once, the chunk starting
// at sequence `start` is seeded `seed + start` (so a sequence does not depend on how many come
// after it), and the trajectory of the first chunk is recorded when asked. A run that fits one
// chunk can also be taken step by step (`sampleBatchSteps`, for streaming: issue #15), with the
// same result.
import { type Network as Model, networkLength } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import { type Tensor, tidy } from '../torch/index.js';
import { type SampleOptions, sample, sampleSteps, type TrajectoryStep } from './driver.js';
import { modelClassifier } from './model-classifier.js';

export interface BatchedSampleOptions
  extends Omit<
    SampleOptions,
    'process' | 'classifier' | 'anchors' | 'batch' | 'length' | 'condition' | 'record'
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

/** The driver's options for the chunk of B sequences starting at `start`. */
function chunkOptions(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
  anchors: Tensor, // [K, d]
  start: number,
  B: number,
): SampleOptions {
  const { n: _n, batchSize: _b, condition, record, seed, ...rest } = o;
  return {
    ...rest,
    process: proc,
    classifier: modelClassifier(model),
    anchors,
    batch: B,
    length: networkLength(model),
    seed: seed + start,
    condition: condition?.(start, B),
    record: record === true && start === 0,
  };
}

/** Token ids [B * L] as B rows of L. */
function splitRows(tokens: number[], B: number, L: number): number[][] {
  return Array.from({ length: B }, (_, b) => tokens.slice(b * L, (b + 1) * L));
}

function checkBatchSize(batchSize: number): void {
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new Error(`batch size must be a positive integer, got ${batchSize}`);
}

export function sampleInBatches(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
): BatchedSampleResult {
  checkBatchSize(o.batchSize);
  const L = networkLength(model);
  const rows: number[][] = [];
  let nfe = 0;
  const rowNfe: number[] = [];
  let trajectory: TrajectoryStep[] | undefined;
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  try {
    for (let start = 0; start < o.n; start += o.batchSize) {
      const B = Math.min(o.batchSize, o.n - start);
      tidy(() => {
        const r = sample(chunkOptions(model, proc, o, anchors, start, B));
        if (r.trajectory) trajectory = r.trajectory;
        nfe = Math.max(nfe, ...r.rowNfe);
        rowNfe.push(...r.rowNfe);
        rows.push(...splitRows(r.tokens.toArray(), B, L));
      });
    }
  } finally {
    anchors.dispose();
  }
  return { rows, nfe, rowNfe, trajectory };
}

/**
 * A run of n <= batchSize sequences step by step: yields each step as the driver makes it
 * (sampleSteps) and returns what sampleInBatches returns for the same options (without the
 * trajectory). Stopping early (`return()`) frees everything the run holds.
 */
export function* sampleBatchSteps(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
): Generator<TrajectoryStep, BatchedSampleResult> {
  checkBatchSize(o.batchSize);
  if (!(o.n >= 1 && o.n <= o.batchSize))
    throw new Error(
      `a stepwise run takes 1 to ${o.batchSize} sequences (one batch), asked for ${o.n}`,
    );
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  const options = chunkOptions(model, proc, o, anchors, 0, o.n);
  try {
    const r = yield* sampleSteps(options);
    const tokens = r.tokens.toArray(); // [n * L]
    r.tokens.dispose();
    r.y.dispose();
    const rowNfe = [...r.rowNfe];
    return { rows: splitRows(tokens, o.n, networkLength(model)), nfe: Math.max(...rowNfe), rowNfe };
  } finally {
    anchors.dispose();
    options.condition?.tokens.dispose();
    options.condition?.mask.dispose();
  }
}
