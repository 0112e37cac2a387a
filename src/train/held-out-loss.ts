// The held-out loss a task reports during training (sec:classifier, Alg. 1): the mean
// cross-entropy of the model on fixed held-out sequences at fixed (antithetic) times and fixed
// corruption noise, so evaluations at different steps differ only by the model.
import type { Network } from '../model/network.js';
import { type SJDProcess, sampleTimes } from '../process/index.js';
import { Generator, noGrad, type Tensor, tidy } from '../torch/index.js';
import { sjdLoss } from './sjd-loss.js';

/** x0 [N, L] int64 held-out tokens -> their mean cross-entropy under the model. */
export function heldOutLoss(model: Network, proc: SJDProcess, x0: Tensor, seed = 12345): number {
  const gen = new Generator(seed);
  return noGrad(() =>
    tidy(() => {
      const t = sampleTimes(x0.size(0), proc.T, 'antithetic', gen);
      return sjdLoss(model, proc, x0, t, gen).item();
    }),
  );
}
