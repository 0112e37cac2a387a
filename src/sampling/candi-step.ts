// CANDI's two hybrid samplers (Pynadath et al. 2025; app:text8 says the paper's text runs used
// "the exact hybrid sampler of CANDI"), written from the description of their public code
// (`algo.py`: generate_samples_nocache and generate_samples_cache), not from the code itself.
// Which one the paper means is ambiguous, so both are here.
//
// CANDI keeps a variance-exploding latent x = x0 + sigma_ve eps in one-hot space (unit-norm
// tokens). Our state is the VP latent y = alpha(t) mu + sigma(t) eps (eq:vp-matched-convolution at
// eta = 1) with anchors of norm c (sqrt(d) for CDCD-normalised anchors), so in CANDI's units
//   x = y / (c alpha(t)),   sigma_ve(t) = sigma(t) / (c alpha(t)),
// and with x0hat the step's clean estimate (in the same units) both samplers move every active
// site deterministically,
//   x_s = x_t - (sigma_ve(t) - sigma_ve(s)) (x_t - x0hat) / sigma_ve(s)^2,
// (as their code: no noise is injected, and the division is by the square of the LOWER level),
// then map back, y_s = c alpha(s) x_s. They differ in x0hat:
//   candi        ("nocache"): the posterior mean, x0hat = W m / c (eq:blended-score's W m), and a
//                committing site draws its token from the tempered classifier;
//   candi-cache  ("cache"): one token drawn per active site from the tempered classifier,
//                x0hat = W E(drawn) / c, and a committing site commits to that same draw.
// Both commit each active site with probability (S(s) - S(t)) / (1 - S(t)) (hazard.ts; their
// (t - s) / t is this ratio for the log-linear hazard) independently of its token; the last
// step commits every active site (their output takes the last draw, or the latent's argmax).
// One classifier pass a step. Not carried over: their network input (a mixture of a mask vector
// and the scaled latent), the off-by-one noise level fed to the network, and the
// eps-dependent last-step time; here the network reads y at t as it was trained.
import { blendedPosteriorMean } from '../process/index.js';
import { type Tensor, where } from '../torch/index.js';
import { checkAncestral, commitProbabilities, reweigh } from './ancestral-step.js';
import { drawCategorical } from './categorical.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { temperedProbs } from './reverse-sde.js';
import type { SamplerName } from './sampler-names.js';
import type { StepContext, StepFn } from './types.js';

/** CANDI's deterministic latent update of the active sites, from t to s, in our VP coordinates. */
function candiMove(
  ctx: StepContext,
  y: Tensor, // [B, L, d]
  x0hat: Tensor, // [B, L, d] clean estimate (the blended mean, in anchor units)
  committed: Tensor, // [B, L]
  t: number,
  s: number,
): Tensor {
  const vp = ctx.process.vp;
  const c = ctx.anchors.norm(2, [1]).mean().item(); // anchor norm (sqrt(d) for CDCD anchors)
  const ve = (u: number) => Math.sqrt(vp.sigma2(u)) / (c * vp.alpha(u));
  const [vt, vs] = [ve(t), ve(s)];
  const x = y.div(c * vp.alpha(t)); // [B, L, d]
  const xs = x.sub(x.sub(x0hat.div(c)).mul((vt - vs) / Math.max(vs * vs, 1e-12)));
  return where(committed.unsqueeze(-1), y, xs.mul(c * vp.alpha(s)));
}

/** One CANDI step; `cache` selects the sampled-x0hat variant. */
export function candiStep(cache: boolean, name: SamplerName): StepFn {
  return (ctx, state, t, s, last, gen) => {
    const proc = ctx.process;
    if (proc.config.kernel !== 'vp')
      throw new Error(
        `the ${name} sampler needs a Gaussian process (hybrid or sjd), not '${proc.config.name}'`,
      );
    checkAncestral(proc, name);
    const E = ctx.anchors; // [K, d]
    const probs = temperedProbs(classify(ctx, state, t), ctx.temperature); // [B, L, K]
    const active = state.committed.logicalNot(); // [B, L]
    const draw = drawCategorical(probs, gen, ctx.topP); // [B, L]
    if (last) return commitSites(state, state.y, active, draw, E);
    const q = commitProbabilities(proc, t, s, E.size(0)); // [K]
    const { mass } = reweigh(probs, q); // [B, L]
    const jump = active.logicalAnd(gen.rand(mass.shape, 'float64').lt(mass)); // [B, L]
    const x0 = cache ? draw.oneHot(E.size(0)).to('float64') : probs; // [B, L, K]
    const x0hat = blendedPosteriorMean(proc, x0, E, state.committed, state.tokens); // [B, L, d]
    const y = candiMove(ctx, state.y, x0hat, state.committed, t, s);
    return commitSites(state, y, jump, draw, E);
  };
}
