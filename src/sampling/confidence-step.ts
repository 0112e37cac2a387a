// The confidence policy (app:sudoku, docs/design.md §5; the paper's headline Sudoku sampler): from
// t to s, commit the round(#active (t - s) / t) active sites whose classifier is most
// confident, each to its argmax; then a second classifier pass on the updated state drives the
// reverse-SDE move of the remaining sites from t to s (reverse-sde.ts; 2 NFE a step). The last
// step fills every remaining site with its argmax (1 NFE). As in Alg. 2, the temperature
// divides the classifier logits wherever the step reads them: the confidence ranking (the
// argmax is unchanged) and the score's posterior mean in the drift.
import { arange, where } from '../torch/index.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { reverseSdeMove, temperedProbs } from './reverse-sde.js';
import type { StepFn } from './types.js';

export const confidenceStep: StepFn = (ctx, state, t, s, last, gen) => {
  const logits = classify(ctx, state, t); // [B, L, K]
  const [conf, pred] = temperedProbs(logits, ctx.temperature).max(-1); // [B, L]
  const active = state.committed.logicalNot(); // [B, L]
  let jump = active;
  if (!last) {
    const [B, L] = active.shape as [number, number];
    const k = active
      .sum(-1)
      .to('float64')
      .mul((t - s) / t)
      .round(); // [B] sites to commit per row (ties to even)
    const order = where(active, conf, -1).sort(-1, true)[1]; // [B, L] most confident first
    const rank = order.mul(0).scatter(-1, order, arange(0, L).view([1, L]).expand([B, L])); // rank of each site
    jump = active.logicalAnd(rank.lt(k.unsqueeze(-1)));
  }
  const committed = commitSites(state, state.y, jump, pred, ctx.anchors);
  if (last || ctx.process.config.kernel !== 'vp') return committed;
  // Second pass: the score on the updated state moves the remaining active sites from t to s.
  const logits2 = classify(ctx, committed, t); // [B, L, K]
  return { ...committed, y: reverseSdeMove(ctx, committed, logits2, t, s, gen) };
};
