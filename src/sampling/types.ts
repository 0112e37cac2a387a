// What the samplers share: the classifier they call (the network as the samplers see it), the state they carry, and a step's context.
import type { SJDProcess } from '../process/index.js';
import type { Tensor } from '../torch/index.js';
import type { StepRandom } from './step-random.js';

/**
 * A forward time: one number for the whole batch (the fixed-grid samplers), or one per row
 * (Float64Array [B]: the adaptive sampler, each board at its own time).
 */
export type Time = number | Float64Array;

/**
 * Values the committed sites rule out (a task's hard constraints, exclusion.ts): tokens [B, L]
 * int64 (meaningful where committed), committed [B, L] bool -> ruled out [B, L, K] bool.
 */
export interface Exclusion {
  (tokens: Tensor, committed: Tensor): Tensor;
  /**
   * Optional: the rows [B, 1] bool that no completion can satisfy although every active site has
   * a value left: left [B, L, K] bool, the values still open at each site (what the exclusion and
   * a search's undoings leave), tokens and committed as above.
   */
  stuck?: (left: Tensor, tokens: Tensor, committed: Tensor) => Tensor;
}

/**
 * The classifier P_theta(a | y, t): y [B, L, d] float32 (committed positions on their anchors),
 * t the forward time (per row or broadcast), committed [B, L] bool -> logits [B, L, K].
 */
export type Classifier = (y: Tensor, t: Time, committed: Tensor) => Tensor;

export interface SamplerState {
  y: Tensor; // [B, L, d] in stateDtype(process): float32 at eta = 1, float64 below
  committed: Tensor; // [B, L] bool
  tokens: Tensor; // [B, L] int64 (meaningful where committed)
  /** a searching sampler's record of its commits (remask-step.ts); absent for the others */
  search?: SearchState;
}

/**
 * What a searching sampler keeps beside the state (remask-step.ts): how sure each commit was,
 * when it was made, and the values earlier undoings ruled out.
 */
export interface SearchState {
  sure: Tensor; // [B, L] float32: the commit's sureness (conditioned sites 2, active sites 0)
  order: Tensor; // [B, L] int32: the row's commit round that committed the site (0: conditioned or active)
  tabu: Tensor; // [B, L, K] int32: the round an undoing went back to when it ruled the value out at the site (0: not ruled out)
  undos: Tensor; // [B, 1] int32: the undoings the row has made
}

/**
 * When the adaptive sampler takes a site as sure: its top (tempered) posterior probability,
 * or the margin between its top two, at least `threshold`.
 */
export interface CommitRule {
  by: 'probability' | 'margin';
  threshold: number;
  /** the undoings a board may make in one attempt (the remasking sampler, remask-step.ts) */
  undos?: number;
}

export interface StepContext {
  process: SJDProcess;
  classifier: Classifier;
  anchors: Tensor; // [K, d] in the state's dtype (stateDtype)
  temperature: number;
  topP: number;
  /** the adaptive sampler's commit rule (its default when absent) */
  commit?: CommitRule;
  /** values the committed sites rule out (a task's hard constraints; exclusion.ts) */
  exclude?: Exclusion;
}

/** One reverse step from t to s < t; `last` forces commitment. Randomness only from gen. */
export type StepFn = (
  ctx: StepContext,
  state: SamplerState,
  t: number,
  s: number,
  last: boolean,
  gen: StepRandom,
) => SamplerState;

/**
 * One step of an adaptive sampler on unfinished rows: each row reads its own time from its
 * state (blanks [B]: the row's sites that are not conditioned); `last` forces commitment.
 */
export type AdaptiveStepFn = (
  ctx: StepContext,
  state: SamplerState,
  blanks: Float64Array,
  last: boolean,
  gen: StepRandom, // a run's generator, or one stream a row (step-random.ts)
) => SamplerState;

/** A state of a run as the driver shows it (plots, the web page's stream). */
export interface TrajectoryStep {
  t: number; // the grid time (adaptive samplers: row 0's time)
  nfe: number; // classifier evaluations spent so far
  committed: Uint8Array; // [B * L]
  tokens: number[]; // [B * L] (-1 where not committed)
  yNorm: Float32Array; // [B * L] |y_i|
  argmax: Int32Array; // [B * L] the last classifier pass's top token (-1 before the first pass)
  confidence: Float32Array; // [B * L] its tempered probability (0 before the first pass)
}
