// The exact ancestral step of the hybrid and blended processes at eta = 1 (the paper's proof of
// prop:plain-hybrid: CADD's update "is the standard DDPM ancestral step", and app:text8's "exact
// hybrid sampler"), beside Alg. 2 (sjd-step.ts), which it refines.
//
// Derivation from the paper's VP laws. At eta = 1 a site unstuck by t has the law
// N(alpha(t) mu_i, sigma^2(t) I) whatever its unstick time tau (eq:vp-matched-convolution with
// eta = 1), mu = W E(x0) (eq:blended-mean). So, given x0 and that the site is unstuck at t:
//   (a) whether it was still stuck at s < t is independent of y_t, with probability
//       q_a = P(tau > s | tau <= t, a) = (S_a(s) - S_a(t)) / (1 - S_a(t))   (hazard.ts);
//       MDLM's unmasking probability, which Alg. 2's clock 1 - exp(-lambdahat_t dt) matches only
//       to first order;
//   (b) if it was stuck, y_s = E(a_i): it commits to its own token;
//   (c) if it was unstuck before s, it diffused by the VP transition from s to t, so
//       y_s | y_t, mu ~ N(cY y_t + cMu mu_i, v I), the DDPM posterior (vp.ts `posterior`).
// Marginalising x0 under the denoising posterior gives the step: a site commits with probability
// sum_a P(a) q_a to a ~ P(a) q_a (the tempered classifier; top-p as the other samplers), and a
// site that stays moves to N(cY y_t + cMu muhat_i, v I) with muhat = W m (blended-score's
// posterior mean; for images E(B vhat), app:cifar10-imagenet), m from the classifier given that
// the site stays (P(a) (1 - q_a), which is P itself when every anchor has the same hazard).
//
// Exact: the commit probability and destination law given the per-site posteriors, the
// posterior variance v, and the mean when the posterior of mu is a point mass. Approximations:
// (1) the classifier in place of the true posterior; (2) muhat, the posterior MEAN of mu, in
// place of a draw of mu: the exact step mixes the Gaussians over the posterior of x0 (its
// variance exceeds v by cMu^2 Var(mu | y_t)); (3) sites are drawn independently given y_t (the
// factorised reverse step every masked and hybrid sampler takes); (4) muhat is read before this
// step's commits. With the masked preset there is no continuous coordinate and the step is
// MDLM's ancestral step (mdlm-step.ts). Grid steps only; eta < 1 is refused (there the time
// posterior couples y_t to tau and no closed-form step exists).
//
// Logit refresh (the authors' option): after the move, a second classifier pass on the moved
// state at time s gives the destinations of this step's commits (2 NFE a step; the last step
// does not move and takes 1).
import {
  blendedPosteriorMean,
  commitProbability,
  type SJDProcess,
  VARIANCE_FLOOR,
} from '../process/index.js';
import { type Tensor, tensor, where } from '../torch/index.js';
import { drawCategorical } from './categorical.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { temperedProbs } from './reverse-sde.js';
import type { SamplerName } from './sampler-names.js';
import { chooseAt, normalAt, sitesOf } from './site-draws.js';
import type { StepFn } from './types.js';

/** Refuses a process with no exact ancestral step. */
export function checkAncestral(proc: SJDProcess, sampler: SamplerName): void {
  if (proc.config.kernel === 'vp' && proc.eta !== 1)
    throw new Error(
      `the ${sampler} sampler needs eta = 1 (got eta ${proc.eta}): at eta < 1 the reverse step has no closed form; use the sjd sampler (Alg. 2)`,
    );
}

/**
 * q_a for every anchor [K] float64 (per-anchor hazard weights w(a)), and their one value when
 * every anchor has the same (null otherwise).
 */
function commitProbabilitiesOf(
  proc: SJDProcess,
  t: number,
  s: number,
  K: number,
): { q: Tensor; shared: number | null } {
  const qs = Array.from(proc.anchorWeights(K), (wa) => commitProbability(proc.hazard, t, s, wa));
  return { q: tensor(qs, [K], 'float64'), shared: qs.every((x) => x === qs[0]) ? qs[0]! : null };
}

/** q_a for every anchor [K] float64 (per-anchor hazard weights w(a)). */
export function commitProbabilities(proc: SJDProcess, t: number, s: number, K: number): Tensor {
  return commitProbabilitiesOf(proc, t, s, K).q;
}

/** The probability per site [B, L] of an event of per-anchor probabilities q [K]: sum_a p_a q_a. */
function eventMass(probs: Tensor, q: Tensor): Tensor {
  return probs.mul(q).sum(-1);
}

/**
 * probs [B, L, K] and the per-anchor probabilities q [K] of an event: the event's probability
 * per site [B, L] and the posterior given it [B, L, K] (uniform q leaves probs as they are).
 */
export function reweigh(probs: Tensor, q: Tensor): { mass: Tensor; posterior: Tensor } {
  const joint = probs.mul(q); // [B, L, K]
  const mass = joint.sum(-1); // [B, L] (eventMass)
  return { mass, posterior: joint.div(mass.unsqueeze(-1).clamp(1e-300, null)) };
}

/**
 * The DDPM posterior move of the active sites: y [B, L, d] and the posterior-mean clean mean
 * muhat [B, L, d] -> y_s [B, L, d] (committed sites unchanged).
 */
export function posteriorMove(
  proc: SJDProcess,
  y: Tensor,
  muhat: Tensor,
  committed: Tensor,
  t: number,
  s: number,
  xi: Tensor,
): Tensor {
  const { cY, cMu, variance } = proc.vp.posterior(t, s, VARIANCE_FLOOR);
  const moved = y
    .mul(cY)
    .add(muhat.mul(cMu))
    .add(xi.mul(Math.sqrt(Math.max(variance, 0))));
  return where(committed.unsqueeze(-1), y, moved);
}

/**
 * The ancestral step, with or without the logit refresh. The whole posterior [B, L, K] is formed
 * in float64 only where q tells anchors apart; when every anchor has the same q (the hybrid and
 * SJD image presets) a site commits with probability q whatever its posterior, the posterior
 * given that it stays is P itself, whose mean is formed in float32 as the score's is (docs/
 * design.md §4), and the float64 posterior is formed at the committing sites only (at 256 levels
 * the whole one is [64 x 784, 256] float64: 103 MB written and read several times a step).
 */
export function ancestralStep(refresh: boolean, name: SamplerName): StepFn {
  return (ctx, state, t, s, last, gen) => {
    const proc = ctx.process;
    checkAncestral(proc, name);
    const E = ctx.anchors; // [K, d]
    const K = E.size(0);
    const logits = classify(ctx, state, t); // [B, L, K]
    const active = state.committed.logicalNot(); // [B, L]
    // the tempered posterior [n, K] float64 of the sites idx [n] of logits [B, L, K]
    const posteriorAt = (l: Tensor, idx: Tensor) => temperedProbs(sitesOf(l, idx), ctx.temperature);
    if (last) {
      const dest = chooseAt(active, (idx) =>
        proc.config.finalCommit === 'argmax'
          ? posteriorAt(logits, idx).argmax(-1)
          : drawCategorical(posteriorAt(logits, idx), gen, ctx.topP),
      ); // [B, L]
      return commitSites(state, state.y, active, dest, E);
    }
    const { q, shared } = commitProbabilitiesOf(proc, t, s, K); // q [K]
    const probs = shared === null ? temperedProbs(logits, ctx.temperature) : null; // [B, L, K]
    const mass = probs ? eventMass(probs, q) : shared!; // [B, L] or one for every site
    const jump = active.logicalAnd(gen.rand(active.shape, 'float64').lt(mass)); // [B, L]
    let y = state.y;
    let destLogits = logits; // [B, L, K] whose posterior, reweighed by q, gives destinations
    if (proc.config.kernel === 'vp') {
      const stay = probs
        ? reweigh(probs, q.neg().add(1)).posterior
        : temperedProbs(logits, ctx.temperature, 'float32'); // [B, L, K]
      const muhat = blendedPosteriorMean(proc, stay, E, state.committed, state.tokens); // [B, L, d]
      const xi = normalAt(active, y.size(-1), gen); // [B, L, d]
      y = posteriorMove(proc, y, muhat, state.committed, t, s, xi);
      // The classifier on the moved state (the sites committing now still active) at time s.
      if (refresh) destLogits = classify(ctx, { ...state, y }, s);
    }
    const dest = chooseAt(jump, (idx) =>
      drawCategorical(reweigh(posteriorAt(destLogits, idx), q).posterior, gen, ctx.topP),
    ); // [B, L], drawn where a site commits
    return commitSites(state, y, jump, dest, E);
  };
}
