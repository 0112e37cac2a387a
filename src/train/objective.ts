// What the trainer minimises, by the run's process (docs/design.md §2): the SJD processes train
// the classifier by cross-entropy on Alg. 1's corruption (sjd-loss.ts; alg:sjd-training), the
// pixel-space baselines of tab:cifar10_fid (ddpm, bitdiff; src/pixel/) train a U-Net regressor
// by the mean squared error of their prediction. One loop (trainer.ts) for both: the network it
// builds from the run's generator, the loss of a batch at times in (0, T), and the evaluation.
import type { Network } from '../model/network.js';
import type { UNetRegressor } from '../model/unet-regressor.js';
import { pixelLoss } from '../pixel/index.js';
import { isPixelProcess, learnedHazardOf, type SJDProcess } from '../process/index.js';
import type { Tensor, TorchGenerator } from '../torch/index.js';
import { buildModel, buildPixelDiffusion, buildProcess, buildRegressor } from './build.js';
import type { TrainConfig } from './config.js';
import { deployed, elboLoss, sjdLoss } from './sjd-loss.js';
import type { TrainTask } from './task.js';

export type Trainable = Network | UNetRegressor;

export interface Objective {
  readonly T: number; // times are drawn in (0, T)
  /** the network, its weights drawn from `gen` */
  build(gen: TorchGenerator): Trainable;
  /** x0 [B, L] int64, t [B], condition [B, L] bool -> the scalar loss */
  loss(
    model: Trainable,
    x0: Tensor,
    t: Float64Array,
    gen: TorchGenerator,
    condition?: Tensor,
  ): Tensor;
  /** the task's evaluation of the (EMA) model */
  evaluate(model: Trainable, step: number): Record<string, number>;
}

/** The objective of a run of `config` on `task`. */
export function objectiveOf(task: TrainTask, config: TrainConfig): Objective {
  if (!isPixelProcess(config.process.name)) {
    const proc: SJDProcess = buildProcess(task, config.process);
    const elbo = config.process.objective === 'elbo';
    const ceWeight =
      learnedHazardOf(config.process.hazardWeights) === 'uniform-ce' ? 'uniform' : 'w';
    return {
      T: proc.T,
      build: (gen) => buildModel(task, config.model, gen, config.process),
      loss: (m, x0, t, gen, condition) =>
        elbo
          ? elboLoss(m as Network, proc, x0, t, gen, condition, ceWeight)
          : sjdLoss(m as Network, proc, x0, t, gen, condition, config.deepSupervision === true),
      // a network with learned weights is evaluated under them (deployed)
      evaluate: (m, step) => task.evaluate(m as Network, deployed(m as Network, proc), step),
    };
  }
  const d = buildPixelDiffusion(task, config.process);
  const evaluateLoss = task.evaluateLoss?.bind(task);
  if (!evaluateLoss)
    throw new Error(`the ${d.name} process trains image models; ${task.name} is not one`);
  return {
    T: 1,
    build: (gen) => buildRegressor(task, config.model, d, gen),
    loss: (m, x0, t, gen, condition) => {
      if (condition) throw new Error(`the ${d.name} process trains without conditioning`);
      return pixelLoss(m as UNetRegressor, d, x0, t, gen);
    },
    evaluate: (m) => evaluateLoss((x0, t, gen) => pixelLoss(m as UNetRegressor, d, x0, t, gen), 1),
  };
}
