// The held-out loss a task reports during training (sec:classifier, Alg. 1): the mean training
// loss of the model on fixed held-out sequences at fixed (antithetic) times and fixed noise, so
// evaluations at different steps differ only by the model. Any objective (objective.ts); the
// SJD form is the cross-entropy of sjd-loss.ts. A large vocabulary (BPE tokens) is taken in
// chunks of rows, so that the logits [rows, L, K] stay within LOGIT_BUDGET elements: the times
// are drawn for all rows first and the noise continues from chunk to chunk, and the result is the
// chunks' mean weighted by their rows.
import type { Network } from '../model/network.js';
import { type SJDProcess, sampleTimes } from '../process/index.js';
import { noGrad, type Tensor, TorchGenerator, tidy } from '../torch/index.js';
import { sjdLoss } from './sjd-loss.js';

/** A training loss: clean tokens x0 [B, L] int64 at times t [B] -> a scalar. */
export type LossFn = (x0: Tensor, t: Float64Array, gen: TorchGenerator) => Tensor;

/** Elements of the logits one held-out chunk may hold (float64 copies: 128 MiB). */
export const LOGIT_BUDGET = 1 << 24;

/**
 * x0 [N, L] int64 held-out tokens -> the mean of `loss` at fixed times in (0, T) and noise; a
 * model of `classes` tokens is taken in chunks of rows within LOGIT_BUDGET.
 */
export function heldOutLossOf(
  loss: LossFn,
  T: number,
  x0: Tensor,
  seed = 12345,
  classes = 1,
): number {
  const gen = new TorchGenerator(seed);
  const [N, L] = x0.shape as [number, number];
  const rows = Math.max(1, Math.floor(LOGIT_BUDGET / (L * classes)));
  return noGrad(() =>
    tidy(() => {
      const t = sampleTimes(N, T, 'antithetic', gen);
      if (rows >= N) return loss(x0, t, gen).item();
      let sum = 0;
      for (let at = 0; at < N; at += rows) {
        const n = Math.min(rows, N - at);
        sum += n * tidy(() => loss(x0.narrow(0, at, n), t.subarray(at, at + n), gen).item());
      }
      return sum / N;
    }),
  );
}

/** x0 [N, L] int64 held-out tokens -> their mean cross-entropy under the SJD model. */
export function heldOutLoss(model: Network, proc: SJDProcess, x0: Tensor, seed = 12345): number {
  const loss: LossFn = (x, t, g) => sjdLoss(model, proc, x, t, g);
  return heldOutLossOf(loss, proc.T, x0, seed, model.anchors.count);
}
