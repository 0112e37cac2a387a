// What the samplers share: the denoiser they call, the state they carry, and a step's context.
import type { SJDProcess } from '../process/index.js';
import type { Tensor } from '../torch/index.js';

/**
 * The classifier P_theta(a | y, t): y [B, L, d] float32 (committed positions on their anchors),
 * t the forward time, committed [B, L] bool -> logits [B, L, K].
 */
export type Denoiser = (y: Tensor, t: number, committed: Tensor) => Tensor;

export interface SamplerState {
  y: Tensor; // [B, L, d] float64
  committed: Tensor; // [B, L] bool
  tokens: Tensor; // [B, L] int64 (meaningful where committed)
}

export interface StepContext {
  process: SJDProcess;
  denoiser: Denoiser;
  anchors: Tensor; // [K, d] float64
  temperature: number;
  topP: number;
}

/** One reverse step from t to s < t; `last` forces commitment. Randomness only from gen. */
export type StepFn = (
  ctx: StepContext,
  state: SamplerState,
  t: number,
  s: number,
  last: boolean,
  gen: import('../torch/index.js').Generator,
) => SamplerState;
