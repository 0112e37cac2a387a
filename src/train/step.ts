// One optimisation step of a classifier trained by cross-entropy (docs/design.md §2 data flow:
// logits -> masked cross-entropy -> backward -> clip -> AdamW). Shared by every trainer,
// the benchmarks and the demo.
import { clipGradNorm, crossEntropy, type Optimizer, type Tensor, tidy } from '../torch/index.js';

export interface StepOptions {
  lr?: number; // learning rate for this step (else the optimiser's)
  clip?: number; // global gradient-norm bound (else none)
  ignoreIndex?: number; // targets equal to this leave the loss (e.g. clues)
}

export interface AccumulateOptions extends StepOptions {
  /** between the backward passes and the clip: e.g. averaging gradients over data-parallel ranks */
  sync?: () => void;
}

/**
 * One step over several losses (a batch in parts): zero grads; per part, build its loss and
 * backward (gradients add up; each part's graph is freed before the next); sync; clip;
 * AdamW/SGD step. Returns the sum of the parts' losses, read once the step is queued (on a GPU
 * reading a value waits for the device: once a step, at its end).
 */
export function accumulateStep(
  parts: (() => Tensor)[],
  opt: Optimizer,
  opts: AccumulateOptions = {},
): number {
  opt.zeroGrad();
  const losses = parts.map((part) =>
    tidy(() => {
      const l = part();
      l.backward();
      return l.detach(); // [] (the graph is freed with the scope)
    }),
  );
  opts.sync?.();
  if (opts.clip !== undefined) clipGradNorm(opt.params, opts.clip).dispose();
  opt.step(opts.lr);
  return losses.reduce((total, l) => {
    const v = l.item();
    l.dispose();
    return total + v;
  }, 0);
}

/** loss() builds a scalar loss; zero grads, backward, clip, AdamW/SGD step; returns the loss. */
export function optimiseStep(loss: () => Tensor, opt: Optimizer, opts: StepOptions = {}): number {
  return accumulateStep([loss], opt, opts);
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
