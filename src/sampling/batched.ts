// The batched sampling loop every task shares: `n` sequences drawn from a trained denoiser in
// chunks of `batchSize` through the one driver; the anchors are read once, the chunk starting at
// sequence `start` is seeded `seed + start` (so a sequence does not depend on how many come after
// it), and the trajectory of the first chunk is recorded when asked. One path (`batchedSteps`): a
// batch run drains it, a run that fits one chunk can be taken step by step (`sampleBatchSteps`, for
// streaming), with the same result.
import { type Network as Model, networkLength } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import { type Tensor, tidy } from '../torch/index.js';
import { pushAll } from '../util/fold.js';
import {
  DEFAULT_BATCH,
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
  type SamplingSettings,
  withSamplingDefaults,
} from './defaults.js';
import { driverSteps, type TrajectoryStep } from './driver.js';
import type { SampleOptions } from './driver-options.js';
import { refillSteps, samplingSteps } from './loop.js';
import { modelClassifier } from './model-classifier.js';
import { getSampler } from './registry.js';
import type { RowJob, RowSource } from './rows.js';
import { doneWithinChunk, drain, shown } from './run.js';

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
  /**
   * told the sequences' worth of work done of `n` as it grows (a command's progress bar): within a
   * chunk of B, B times the share of its NFE taken (never the whole B before it ends), then B
   */
  progress?: (done: number, n: number) => void;
}

/**
 * An unconditional run's options (text, images: `sjd sample`, the API, the frontiers): any of
 * the sampling settings (the rest from the task's defaults, defaults.ts), the count and seed.
 */
export interface UnconditionalOptions extends Partial<SamplingSettings> {
  n: number;
  seed: number;
  batch?: number; // default DEFAULT_BATCH
  record?: boolean; // the trajectory of the first batch
  progress?: (done: number, n: number) => void; // after each batch
}

/** The batched sampler's options for an unconditional run of `proc`, `d` filling what `o` leaves. */
export function unconditionalSampling(
  proc: SJDProcess,
  o: UnconditionalOptions,
  d: SamplingDefaults = SAMPLING_DEFAULTS,
): BatchedSampleOptions {
  return {
    ...withSamplingDefaults(d, proc, o),
    n: o.n,
    batchSize: o.batch ?? DEFAULT_BATCH,
    seed: o.seed,
    record: o.record,
    progress: o.progress,
  };
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
  const { n: _n, batchSize: _b, condition, record, seed, budgets, ...rest } = o;
  return {
    ...rest,
    budgets: budgets?.slice(start, start + B),
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

export function checkBatchSize(batchSize: number): void {
  if (!(Number.isInteger(batchSize) && batchSize >= 1))
    throw new Error(`batch size must be a positive integer, got ${batchSize}`);
}

/**
 * Which steps a run shows: every one (a stream), the first chunk's (the recorded trajectory of
 * a batch run), or none (a batch run: the driver then snapshots nothing).
 */
export type Watch = 'all' | 'first' | 'none';

/**
 * The one batched path: the chunks in turn through the driver, each step yielded (null where not
 * watched), returning the rows, their NFE and nothing else; stopping early frees everything.
 */
export function* batchedSteps(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, BatchedSampleResult> {
  checkBatchSize(o.batchSize);
  if (o.budgets && o.budgets.length !== o.n)
    throw new Error(`${o.budgets.length} row budgets for ${o.n} sequences`);
  if (getSampler(o.sampler).kind === 'adaptive') return yield* refilledSteps(model, proc, o, watch);
  const L = networkLength(model);
  const rows: number[][] = [];
  const rowNfe: number[] = [];
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  try {
    for (let start = 0; start < o.n; start += o.batchSize) {
      const B = Math.min(o.batchSize, o.n - start);
      const options = chunkOptions(model, proc, o, anchors, start, B);
      try {
        const seen = watch === 'all' || (watch === 'first' && start === 0);
        const r = yield* reported(driverSteps(options, seen), (k) =>
          o.progress?.(doneWithinChunk(start, B, k, o.nfe), o.n),
        );
        pushAll(rows, splitRows(r.tokens.toArray(), B, L));
        pushAll(rowNfe, r.rowNfe);
        r.tokens.dispose();
        r.y.dispose();
        o.progress?.(start + B, o.n);
      } finally {
        options.condition?.tokens.dispose();
        options.condition?.mask.dispose();
      }
    }
  } finally {
    anchors.dispose();
  }
  return { rows, nfe: rowNfe.reduce((a, b) => Math.max(a, b), 0), rowNfe };
}

/** `run`'s steps passed on, `step(k)` told the count after each; closing this closes `run`. */
function* reported<T, R>(run: Generator<T, R>, step: (k: number) => void): Generator<T, R> {
  try {
    for (let k = 1; ; k++) {
      const r = run.next();
      if (r.done) return r.value;
      yield r.value;
      step(k);
    }
  } finally {
    run.return(undefined as R);
  }
}

/**
 * An adaptive sampler's `n` sequences as one refilled batch of `batchSize` slots (loop.ts):
 * sequence k keyed by (seed, k) with its condition and budget, whatever slot and pass it gets.
 */
function* refilledSteps(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, BatchedSampleResult> {
  const L = networkLength(model);
  const rows: number[][] = new Array(o.n);
  const rowNfe: number[] = new Array(o.n).fill(0);
  let next = 0;
  let done = 0;
  const source: RowSource = {
    take: () => {
      if (next >= o.n) return undefined;
      const id = next++;
      const budget = o.budgets?.[id] ?? o.nfe;
      if (budget > o.nfe)
        throw new Error(`a row's NFE budget must be at most the run's ${o.nfe}, got ${budget}`);
      return { seed: o.seed, id, attempt: 0, budget, condition: rowCondition(o, id, L) };
    },
    done: (job, answer) => {
      rows[job.id] = answer.tokens;
      rowNfe[job.id] = answer.nfe;
      o.progress?.(++done, o.n);
    },
  };
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  try {
    const { n: _n, batchSize, condition: _c, record: _r, budgets: _b, ...rest } = o;
    const run = refillSteps(
      { ...rest, process: proc, classifier: modelClassifier(model), anchors, length: L, batchSize },
      source,
      watch,
    );
    const r = yield* samplingSteps(run);
    r.tokens.dispose();
    r.y.dispose();
  } finally {
    anchors.dispose();
  }
  return { rows, nfe: rowNfe.reduce((a, b) => Math.max(a, b), 0), rowNfe };
}

/** Sequence `id`'s conditioned sites as host arrays (tokens [L], mask [L]), if any. */
function rowCondition(o: BatchedSampleOptions, id: number, L: number): RowJob['condition'] {
  if (!o.condition) return undefined;
  const c = o.condition(id, 1);
  try {
    const tokens = c.tokens.toArray();
    const mask = tidy(() => c.mask.to('uint8').toArray());
    if (tokens.length !== L) throw new Error(`a condition row must have ${L} sites`);
    return { tokens, mask };
  } finally {
    c.tokens.dispose();
    c.mask.dispose();
  }
}

/** `n` sequences in chunks: batchedSteps drained, with the first chunk's trajectory when `record`. */
export function sampleInBatches(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
): BatchedSampleResult {
  return drain(batchedSteps(model, proc, o, o.record ? 'first' : 'none'), o.record === true);
}

/**
 * A run of n <= batchSize sequences step by step: yields each step as the driver makes it and
 * returns what sampleInBatches returns for the same options (without the trajectory).
 * Stopping early (`return()`) frees everything the run holds.
 */
export function sampleBatchSteps(
  model: Model,
  proc: SJDProcess,
  o: BatchedSampleOptions,
): Generator<TrajectoryStep, BatchedSampleResult> {
  checkBatchSize(o.batchSize);
  if (!(o.n >= 1 && o.n <= o.batchSize))
    throw new Error(
      `a stepwise run takes 1 to ${o.batchSize} sequences (one batch), asked for ${o.n}`,
    );
  return shown(batchedSteps(model, proc, o, 'all'));
}
