// Hard constraints at sampling: a task may rule values out at a site from the sites already
// committed (Sudoku: a digit a committed peer holds). The exact denoising posterior (sec:dhm) gives
// such a value probability 0 given the committed sites; the classifier only approximates it, so its
// logits there are pushed to a large negative value before any sampler reads them (the commit rule,
// the argmax, the score's posterior mean). A site with every value ruled out (a contradiction
// already committed) keeps the classifier's logits. A searching sampler's undoings rule values out
// the same way (remask-step.ts).
import type { Tensor } from '../torch/index.js';
import type { SamplerState, StepContext, Time } from './types.js';

export type { Exclusion } from './types.js';

/** A logit no softmax gives mass to, finite so that log-probabilities stay finite. */
const RULED_OUT = -1e9;

/**
 * The values ruled out at each site [B, L, K] bool: by the context's exclusion and by a searching
 * sampler's undoings (state.search.tabu); undefined when nothing rules any out.
 */
export function ruledOut(ctx: StepContext, state: SamplerState): Tensor | undefined {
  const byRules = ctx.exclude?.(state.tokens, state.committed);
  const tabu = state.search?.tabu.gt(0); // [B, L, K]
  return byRules && tabu ? byRules.logicalOr(tabu) : (byRules ?? tabu);
}

/**
 * The classifier's logits [B, L, K] on `state` at time t, with the values ruled out applied
 * (`ruled`: ruledOut(ctx, state), when the caller has it already).
 */
export function classify(ctx: StepContext, state: SamplerState, t: Time, ruled?: Tensor): Tensor {
  const logits = ctx.classifier(state.y.to('float32'), t, state.committed); // [B, L, K]
  const out = ruled ?? ruledOut(ctx, state);
  if (!out) return logits;
  const open = out.all(-1, true).logicalNot(); // [B, L, 1] sites with a value left
  return logits.maskedFill(out.logicalAnd(open), RULED_OUT);
}
