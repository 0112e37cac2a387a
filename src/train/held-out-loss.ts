// The held-out loss a task reports during training (sec:classifier, Alg. 1): the mean training
// loss of the model on fixed held-out sequences at fixed (antithetic) times and fixed noise, so
// evaluations at different steps differ only by the model. Any objective (objective.ts); the
// SJD form is the cross-entropy of sjd-loss.ts.
import type { Network } from '../model/network.js';
import { type SJDProcess, sampleTimes } from '../process/index.js';
import { noGrad, type Tensor, TorchGenerator, tidy } from '../torch/index.js';
import { sjdLoss } from './sjd-loss.js';

/** A training loss: clean tokens x0 [B, L] int64 at times t [B] -> a scalar. */
export type LossFn = (x0: Tensor, t: Float64Array, gen: TorchGenerator) => Tensor;

/** x0 [N, L] int64 held-out tokens -> the mean of `loss` at fixed times in (0, T) and noise. */
export function heldOutLossOf(loss: LossFn, T: number, x0: Tensor, seed = 12345): number {
  const gen = new TorchGenerator(seed);
  return noGrad(() =>
    tidy(() => {
      const t = sampleTimes(x0.size(0), T, 'antithetic', gen);
      return loss(x0, t, gen).item();
    }),
  );
}

/** x0 [N, L] int64 held-out tokens -> their mean cross-entropy under the SJD model. */
export function heldOutLoss(model: Network, proc: SJDProcess, x0: Tensor, seed = 12345): number {
  return heldOutLossOf((x, t, g) => sjdLoss(model, proc, x, t, g), proc.T, x0, seed);
}
