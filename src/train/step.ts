// One optimisation step of a classifier trained by cross-entropy (DESIGN.md §2 data flow:
// logits -> masked cross-entropy -> backward -> clip -> AdamW). Shared by every trainer,
// the benchmarks and the demo.
import { clipGradNorm, crossEntropy, type Optimizer, type Tensor, tidy } from '../torch/index.js';

export interface StepOptions {
  lr?: number; // learning rate for this step (else the optimiser's)
  clip?: number; // global gradient-norm bound (else none)
  ignoreIndex?: number; // targets equal to this leave the loss (e.g. clues)
}

/** loss() builds a scalar loss; zero grads, backward, clip, AdamW/SGD step; returns the loss. */
export function optimiseStep(loss: () => Tensor, opt: Optimizer, opts: StepOptions = {}): number {
  return tidy(() => {
    const l = loss();
    opt.zeroGrad();
    l.backward();
    if (opts.clip !== undefined) clipGradNorm(opt.params, opts.clip);
    opt.step(opts.lr);
    return l.item();
  });
}

/** forward(inputs) gives logits [B, L, K] for targets [B, L]; returns the mean loss. */
export function crossEntropyStep(
  forward: () => Tensor,
  targets: Tensor,
  opt: Optimizer,
  opts: StepOptions = {},
): number {
  return optimiseStep(
    () => {
      const logits = forward(); // [B, L, K]
      const K = logits.size(-1);
      return crossEntropy(logits.reshape([-1, K]), targets.reshape([-1]), {
        ignoreIndex: opts.ignoreIndex,
      });
    },
    opt,
    opts,
  );
}
