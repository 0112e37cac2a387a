// What a task gives the trainer (docs/design.md §2: tasks feed train/, train/ knows no task): its
// shape (what rebuilding a saved model and its process needs), its data, its evaluation and the
// metrics it declares, including the one whose first positive value is the takeoff step
// (sec:exp-sudoku: the first evaluation that solves a board).
import type { Network } from '../model/network.js';
import type { BlendShape, SJDProcess } from '../process/index.js';
import type { Tensor, TorchGenerator } from '../torch/index.js';
import type { LossFn } from './held-out-loss.js';

/** What building a model and its process needs of a task (loading a trained model needs no data). */
export interface TaskShape {
  readonly name: string;
  readonly length: number; // L
  readonly classes: number; // K
  readonly structure?: number[][]; // per structure, the group of every position
  readonly blendShape?: BlendShape; // the positions W acts on (default: L in a row)
}

export interface TrainTask extends TaskShape {
  readonly dataHash: string;
  readonly evalMetrics: string[];
  /** the metric whose first positive evaluation is the run's takeoff step, if any */
  readonly takeoffMetric?: string;
  batch(size: number, gen: TorchGenerator): { x0: Tensor; condition?: Tensor }; // [B, L] int64, [B, L] bool
  evaluate(model: Network, proc: SJDProcess, step: number): Record<string, number>;
  /**
   * The evaluation by a held-out loss alone, for any objective (objective.ts): a task that has
   * it trains the pixel-space processes too (images). T: times are drawn in (0, T).
   */
  evaluateLoss?(loss: LossFn, T: number): Record<string, number>;
}
