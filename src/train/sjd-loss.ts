// The SJD training objective (alg:sjd-training, eq:classifier-loss): corrupt x0 at times t by
// Alg. 1, predict x0 from (y, t), cross-entropy over the unstuck, unconditioned positions
// (the never-unstuck branch and the clues are the loss mask). Returns the mean over those.
import type { Network } from '../model/network.js';
import { corrupt, type SJDProcess } from '../process/index.js';
import { crossEntropy, type Generator, type Tensor, tensor, where } from '../torch/index.js';

export function sjdLoss(
  model: Network,
  proc: SJDProcess,
  x0: Tensor,
  t: Float64Array,
  gen: Generator,
  condition?: Tensor,
): Tensor {
  const E = model.anchors.forward(); // [K, d]
  const { y, stuck, lossMask } = corrupt(proc, x0, E, t, gen, condition); // y [B, L, d]
  const logits = model.forward(y, tensor(t, [t.length], 'float64').to('float32'), stuck); // [B, L, K]
  const K = logits.size(-1);
  const targets = where(lossMask, x0, -100); // [B, L]
  const total = crossEntropy(logits.reshape([-1, K]), targets.reshape([-1]), {
    ignoreIndex: -100,
    reduction: 'sum',
  });
  return total.div(lossMask.sum().clamp(1)); // on the device: no host sync per step
}
