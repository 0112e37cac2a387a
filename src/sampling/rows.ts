// The rows of a sampling run (loop.ts): a row to sample (its key, budget and conditioned sites)
// and its answer, the source the rows come from and their answers go to, a run's options, what a
// watcher sees of a pass and what a run returns, and the slot a row occupies while it works.
import type { SJDProcess } from '../process/index.js';
import type { Tensor } from '../torch/index.js';
import type { Exclusion } from './exclusion.js';
import type { SamplerName } from './sampler-names.js';
import type { Classifier, CommitRule, TrajectoryStep } from './types.js';

/** A row to sample: its key (seed, id, attempt), its NFE cap and its conditioned sites. */
export interface RowJob {
  seed: number;
  id: number; // the row's own number (a board's index in its set)
  attempt: number; // 0 for a first run; a retry's count
  budget: number; // the NFE cap of this run: its floor(budget / NFE a step)-th step fills it
  /** the conditioned sites: tokens [L] (read where mask is set) and mask [L] (1: conditioned) */
  condition?: { tokens: ArrayLike<number>; mask: ArrayLike<number> };
}

/** A finished row: its tokens [L] and the classifier evaluations it took part in. */
export interface RowAnswer {
  tokens: number[];
  nfe: number;
}

/**
 * Where the rows come from and their answers go: `take` gives the next row to start (undefined
 * when none waits now), `done` takes a row's answer (and may queue another row, a retry, for the
 * next `take`), and `dropped`, if given, names a row to stop at once (its request went away): its
 * slot is freed without an answer.
 */
export interface RowSource {
  take(): RowJob | undefined;
  done(job: RowJob, answer: RowAnswer): void;
  dropped?(job: RowJob): boolean;
}

/** A run of rows: the process and classifier, the rows' length, the sampler, the slots and the draws. */
export interface RefillOptions {
  process: SJDProcess;
  classifier: Classifier;
  anchors: Tensor; // [K, d]
  length: number; // sites a row
  sampler: SamplerName;
  batchSize: number; // slots at most
  temperature: number;
  topP: number;
  commit?: CommitRule;
  exclude?: Exclusion;
  /**
   * false: new rows enter only when every slot is free (a batch waits for its slowest row: the
   * batching before this, kept to measure against); default true
   */
  refill?: boolean;
}

/** A pass as a watcher sees it: the slots' state, and the row in each slot (null: free). */
export interface RefillStep {
  step: TrajectoryStep; // over the slots: [slots * L], its t slot 0's, its nfe the run's passes
  jobs: (RowJob | null)[]; // [slots]
}

/** What a refilled run returns: its passes, and the slots' final tokens [S, L] and state y. */
export interface RefillResult {
  passes: number; // classifier evaluations of the batch (each over the rows then working)
  tokens: Tensor; // [S, L] int64: the last row each slot held (the caller frees it)
  y: Tensor; // [S, L, d] (the caller frees it)
}

/** Which passes are watched: every one, those while the first batch's first runs work, none. */
export type RefillWatch = 'all' | 'first' | 'none';

/** One slot's row: its job, its own step, its last step, its blanks and what it has spent. */
export interface Slot {
  job: RowJob;
  step: number; // the row's own steps taken
  last: number; // the step its budget ends at (it fills the row)
  blanks: number; // sites not conditioned
  nfe: number;
  argmax: Int32Array; // [L] the last pass's top token at each site (-1 before the first)
  confidence: Float32Array; // [L] its tempered probability
  done: boolean; // every site committed
  first: boolean; // one of the rows of the run's first fill
}
