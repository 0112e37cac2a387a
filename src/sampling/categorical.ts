// Categorical draws in float64 from per-position distributions, with top-p (nucleus)
// truncation: keep the most probable anchors whose mass first reaches p, renormalise.

import { type Tensor, zerosLike } from '../torch/index.js';
import type { StepRandom } from './step-random.js';

/** probs [..., K] (rows sum to 1) -> draws [...] int64. */
export function drawCategorical(probs: Tensor, gen: StepRandom, topP = 1): Tensor {
  if (!(topP > 0 && topP <= 1)) throw new Error(`top-p must be in (0, 1], got ${topP}`);
  const shape = probs.shape;
  const K = shape[shape.length - 1]!;
  let p = probs.to('float64').reshape([-1, K]); // [N, K]
  if (topP < 1) {
    const [sorted, order] = p.sort(-1, true);
    const before = sorted.cumsum(-1).sub(sorted); // mass strictly before each entry
    const keepSorted = before.lt(topP); // the first entry is always kept
    const keep = zerosLike(p).scatter(-1, order, keepSorted.to('float64')).gt(0); // back to anchor order
    p = p.mul(keep);
  }
  return gen.multinomial(p, 1).reshape(shape.slice(0, -1));
}
