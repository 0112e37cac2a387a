// The SJD predictor, one step of Alg. 2 (alg:sjd-sampling, app:sampling) as a pure function:
// one classifier pass; the plug-in rate and allocation (eq:plugin-estimators, closed form or
// quadrature); the reverse-SDE move of the active sites (reverse-sde.ts: the drift line of
// Alg. 2 with the classifier-induced score); each active site jumps with probability
// 1 - exp(-lambda_plug dt) to an anchor drawn from pi_plug; committed sites stay frozen. The
// temperature divides the classifier logits wherever the step reads them, the allocation and
// the score's posterior mean (as CANDI's sampler, whose temperature sweep the paper traces; the
// authors' text8 runs set their symmetric temperature so). `sjd-refresh` is the authors'
// optional logit refresh (their text8 and CIFAR-10 settings).
import { logTarget, plugInAllocation, plugInRate } from '../process/index.js';
import type { Tensor } from '../torch/index.js';
import { drawCategorical } from './categorical.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { reverseSdeMove } from './reverse-sde.js';
import { chooseAt, sitesOf } from './site-draws.js';
import type { StepContext, StepFn } from './types.js';

/** log lambdahat at (y, t) and, at eta < 1, the quadrature's mixture terms (shared with the score). */
function dhmTarget(ctx: StepContext, y: Tensor, t: number) {
  return logTarget(ctx.process, y, ctx.anchors, t);
}

/**
 * Alg. 2's step; with `refresh` (the authors' logit refresh), a second classifier pass on the
 * moved state at time s drives the jump (its rate and allocation read at (y_s, s)): 2 NFE a
 * step, the last step (no move) 1.
 */
export function sjdStepWith(refresh: boolean): StepFn {
  return (ctx, state, t, s, last, gen) => {
    const proc = ctx.process;
    const E = ctx.anchors; // [K, d]
    const logits = classify(ctx, state, t); // [B, L, K]
    const { logTarget, mixture } = dhmTarget(ctx, state.y, t);
    const dt = t - s;
    const moves = proc.config.kernel === 'vp' && !last;
    const y = moves ? reverseSdeMove(ctx, state, logits, t, s, gen, mixture) : state.y; // [B, L, d]
    let jumpAt = { logits, logTarget };
    if (refresh && moves) {
      const moved = { ...state, y };
      jumpAt = { logits: classify(ctx, moved, s), logTarget: dhmTarget(ctx, y, s).logTarget };
    }
    const rate = plugInRate(jumpAt.logits, jumpAt.logTarget); // [B, L]
    const active = state.committed.logicalNot();
    const jump = last
      ? active
      : active.logicalAnd(gen.rand(rate.shape, 'float64').lt(rate.mul(-dt).expm1().neg()));
    // pi_plug only where a site commits: the logits and target of those sites [n, K].
    const target = (idx: Tensor) =>
      jumpAt.logTarget.shape.length === 1 ? jumpAt.logTarget : sitesOf(jumpAt.logTarget, idx);
    const allocationAt = (idx: Tensor) =>
      plugInAllocation(sitesOf(jumpAt.logits, idx), target(idx), ctx.temperature); // [n, K]
    const dest = chooseAt(jump, (idx) =>
      last && proc.config.finalCommit === 'argmax'
        ? allocationAt(idx).argmax(-1)
        : drawCategorical(allocationAt(idx), gen, ctx.topP),
    ); // [B, L]
    return commitSites(state, y, jump, dest, E);
  };
}

export const sjdStep: StepFn = sjdStepWith(false);
