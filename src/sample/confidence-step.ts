// The confidence policy (app:sudoku, DESIGN.md §5; the paper's headline Sudoku sampler): from
// t to s, commit the round(#active (t - s) / t) active sites whose classifier is most
// confident, each to its argmax; then a second classifier pass on the updated state drives the
// reverse SDE of the remaining sites from t to s (2 NFE a step). The last step fills every
// remaining site with its argmax.
import { classifierScore } from '../process/index.js';
import { arange, where } from '../torch/index.js';
import { commitSites } from './commit.js';
import type { StepFn } from './types.js';

export const confidenceStep: StepFn = (ctx, state, t, s, last, gen) => {
  const proc = ctx.process;
  const E = ctx.anchors;
  const probs = ctx.denoiser(state.y.to('float32'), t, state.committed).to('float64').softmax(-1); // [B, L, K]
  const [conf, pred] = probs.max(-1); // [B, L]
  const active = state.committed.logicalNot();
  let jump = active;
  if (!last) {
    const [B, L] = active.shape as [number, number];
    const k = active
      .sum(-1)
      .to('float64')
      .mul((t - s) / t)
      .round(); // [B] sites to commit per row
    const order = where(active, conf, -1).sort(-1, true)[1]; // [B, L] most confident first
    const rank = order.mul(0).scatter(-1, order, arange(0, L).view([1, L]).expand([B, L])); // rank of each site
    jump = active.logicalAnd(rank.lt(k.unsqueeze(-1)));
  }
  const committed = commitSites(state, state.y, jump, pred, E);
  if (last || proc.config.kernel !== 'vp') return committed;
  // Second pass: the score on the updated state moves the remaining active sites from t to s.
  const probs2 = ctx
    .denoiser(committed.y.to('float32'), t, committed.committed)
    .to('float64')
    .softmax(-1);
  const score = classifierScore(
    proc,
    committed.y,
    t,
    probs2,
    E,
    committed.committed,
    committed.tokens,
  );
  const beta = proc.vp.beta(t);
  const dt = t - s;
  const y = committed.y;
  const moved = y
    .add(
      y
        .mul(0.5 * beta)
        .add(score.mul(beta))
        .mul(dt),
    )
    .add(gen.randn(y.shape, 'float64').mul(Math.sqrt(beta * dt)));
  return { ...committed, y: where(committed.committed.unsqueeze(-1), y, moved) };
};
