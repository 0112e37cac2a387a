// The SJD predictor, one step of Alg. 2 (alg:sjd-sampling, app:sampling) as a pure function:
// one classifier pass; the plug-in rate and allocation (eq:plugin-estimators, closed form or
// quadrature); the reverse-SDE move of the active sites (reverse-sde.ts: the drift line of
// Alg. 2 with the classifier-induced score); each active site jumps with probability
// 1 - exp(-lambda_plug dt) to an anchor drawn from pi_plug; committed sites stay frozen. The
// temperature divides the classifier logits wherever the step reads them, the allocation and
// the score's posterior mean (as CANDI's sampler, whose temperature sweep the paper traces).
import {
  logTargetClosedForm,
  logTargetQuadrature,
  type MixtureTerms,
  plugIn,
} from '../process/index.js';
import type { Tensor } from '../torch/index.js';
import { drawCategorical } from './categorical.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { reverseSdeMove } from './reverse-sde.js';
import type { StepFn } from './types.js';

export const sjdStep: StepFn = (ctx, state, t, s, last, gen) => {
  const proc = ctx.process;
  const E = ctx.anchors; // [K, d]
  const [K, d] = E.shape as [number, number];
  const logits = classify(ctx, state, t); // [B, L, K]
  let logTarget: Tensor;
  let mixture: MixtureTerms | undefined;
  if (proc.closedForm) logTarget = logTargetClosedForm(proc, t, K);
  else
    ({ logTarget, mixture } = logTargetQuadrature(proc, proc.anchorDistances(state.y, E, t), t, d));
  const { rate, allocation } = plugIn(logits, logTarget, ctx.temperature); // [B, L], [B, L, K]
  const dt = t - s;
  const y =
    proc.config.kernel === 'vp' && !last
      ? reverseSdeMove(ctx, state, logits, t, s, gen, mixture) // [B, L, d]
      : state.y;
  const active = state.committed.logicalNot();
  const jump = last
    ? active
    : active.logicalAnd(gen.rand(rate.shape, 'float64').lt(rate.mul(-dt).expm1().neg()));
  const dest =
    last && proc.config.finalCommit === 'argmax'
      ? allocation.argmax(-1)
      : drawCategorical(allocation, gen, ctx.topP);
  return commitSites(state, y, jump, dest, E);
};
