// The MDLM / MD4 ancestral sampler for the masked preset (sec:conn-discrete,
// app:prelim-masked): from t to s each masked site unmasks with probability
// (S(s) - S(t)) / (1 - S(t)) to a token drawn from the classifier (temperature, top-p); the
// last step unmasks all. No continuous state: masked sites stay at the mask point.
import { commitProbability } from '../process/index.js';
import { drawCategorical } from './categorical.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { temperedProbs } from './reverse-sde.js';
import { chooseAt, sitesOf } from './site-draws.js';
import type { StepFn } from './types.js';

export const mdlmStep: StepFn = (ctx, state, t, s, last, gen) => {
  const proc = ctx.process;
  if (proc.config.kernel !== 'mask')
    throw new Error(`the mdlm sampler needs the masked process, not '${proc.config.name}'`);
  const logits = classify(ctx, state, t); // [B, L, K]
  const pUnmask = last ? 1 : commitProbability(proc.hazard, t, s);
  const active = state.committed.logicalNot();
  const jump = last ? active : active.logicalAnd(gen.rand(active.shape, 'float64').lt(pUnmask));
  const dest = chooseAt(jump, (idx) =>
    drawCategorical(temperedProbs(sitesOf(logits, idx), ctx.temperature), gen, ctx.topP),
  ); // [B, L], drawn where a site unmasks
  return commitSites(state, state.y, jump, dest, ctx.anchors);
};
