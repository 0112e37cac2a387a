// The adaptive sampler (beside the confidence policy of confidence-step.ts): each board keeps its own
// time consistent with its state. A step on a board with `active` of its `blanks` sites uncommitted
// reads the classifier at t = t_board(active / blanks) (board-time.ts: the time at which the
// forward process leaves that fraction of blanks unstuck, 1 - S(t) = f), commits every active site
// the classifier is sure of (commit rule: top posterior probability, or margin between the top two,
// at least the threshold; always at least the most sure one) to its argmax, and moves the sites
// still active by the reverse SDE (reverse-sde.ts, Alg. 2's drift line) from t to the board's next
// time s = t_board(active' / blanks), in substeps that keep each Euler step stable, reading the
// score from the same classifier pass with the new commitments exact: 1 NFE a step. A board stops
// when every site is committed; the driver's last step (NFE budget spent) fills every active site
// with its argmax. As in Alg. 2 the temperature divides the logits wherever they are read.

import { type SJDProcess, VARIANCE_FLOOR } from '../process/index.js';
import { type Tensor, where } from '../torch/index.js';
import { boardTimes } from './board-time.js';
import { commitSites } from './commit.js';
import { classify } from './exclusion.js';
import { reverseSdeMoveAlong, temperedProbs } from './reverse-sde.js';
import type { StepRandom } from './step-random.js';
import type { AdaptiveStepFn, CommitRule, SamplerState, StepContext } from './types.js';

/**
 * The default commit rule: sure at posterior probability 0.9999. With the shipped Sudoku model
 * it solved the most of 200 generated puzzles (0.999 takes fewer NFE and solves fewer; 0.99999
 * takes more NFE and solves no more): the model's probabilities are overconfident.
 */
export const DEFAULT_COMMIT: CommitRule = { by: 'probability', threshold: 0.9999 };

/**
 * The move's substeps: each Euler-Maruyama substep from t_k has beta(t_k) dt <= SUBSTEP
 * sigma^2(t_k), so the score's pull -beta y / sigma^2 never overshoots (a board that commits
 * many sites at once jumps far in time; one Euler step over that span diverges).
 */
export const SUBSTEP = 1;

/** A commit rule's one-line check (the flag or field is named by the caller). */
export function checkCommitRule(rule: CommitRule): void {
  if (rule.by !== 'probability' && rule.by !== 'margin')
    throw new Error(`commit rule: expected probability or margin, got '${rule.by}'`);
  if (!(rule.threshold > 0 && rule.threshold <= 1))
    throw new Error(`commit threshold must be in (0, 1], got ${rule.threshold}`);
  if (rule.undos !== undefined && !(Number.isInteger(rule.undos) && rule.undos >= 0))
    throw new Error(`undos must be a whole number >= 0, got ${rule.undos}`);
}

/** An adaptive step's new state, the sites it committed [B, L] bool and their sureness [B, L]. */
export interface AdaptiveMove {
  next: SamplerState;
  jump: Tensor;
  sure: Tensor;
}

/**
 * The adaptive step, with what it committed and how sure it was of each site (remask-step.ts,
 * which passes the values ruled out on `state` when it has them: `ruled` [B, L, K] bool).
 */
export function adaptiveMove(
  ctx: StepContext,
  state: SamplerState,
  blanks: Float64Array,
  last: boolean,
  gen: StepRandom,
  ruled?: Tensor,
): AdaptiveMove {
  const rule = ctx.commit ?? DEFAULT_COMMIT;
  checkCommitRule(rule);
  const active = state.committed.logicalNot(); // [B, L]
  const t = boardTimes(ctx.process, active.sum(-1).toArray(), blanks); // [B]
  const logits = classify(ctx, state, t, ruled); // [B, L, K]
  const probs = temperedProbs(logits, ctx.temperature); // [B, L, K]
  const { sure, pred } = sureness(probs, rule); // [B, L], [B, L]
  let jump = active;
  if (!last) {
    const score = where(active, sure, -1); // [B, L]
    const best = score.argmax(-1).oneHot(active.size(1)).to('bool'); // [B, L] the surest active site
    jump = active.logicalAnd(score.ge(rule.threshold)).logicalOr(best.logicalAnd(active));
  }
  const committed = commitSites(state, state.y, jump, pred, ctx.anchors);
  if (last || ctx.process.config.kernel !== 'vp') return { next: committed, jump, sure };
  const left = committed.committed.logicalNot().sum(-1).toArray(); // [B] active sites now
  const s = boardTimes(ctx.process, left, blanks); // [B]
  // Substeps of the move (no classifier pass): row b's from sub[b][k] to sub[b][k + 1]; a
  // finished row does not move.
  const sub = Array.from(t, (tb, b) =>
    left[b] === 0 ? [tb] : substepTimes(ctx.process, tb, s[b]!, SUBSTEP),
  );
  const y = reverseSdeMoveAlong(ctx, committed, logits, sub, gen, probs); // [B, L, d]
  return { next: { ...committed, y }, jump, sure };
}

/**
 * Each site's argmax pred [B, L] and how sure the rule is of it [B, L]: its probability, or its
 * margin over the runner-up (probs [B, L, K]).
 */
function sureness(probs: Tensor, rule: CommitRule): { sure: Tensor; pred: Tensor } {
  if (rule.by === 'margin' && probs.size(-1) > 1) {
    const [top, pred] = probs.topk(2, -1); // [B, L, 2]
    return { sure: top.select(-1, 0).sub(top.select(-1, 1)), pred: pred.select(-1, 0) };
  }
  const [p1, pred] = probs.max(-1); // [B, L]
  return { sure: p1, pred };
}

export const adaptiveStep: AdaptiveStepFn = (ctx, state, blanks, last, gen) =>
  adaptiveMove(ctx, state, blanks, last, gen).next;

/** t = t_0 > t_1 > ... > t_n = s with beta(t_k) (t_k - t_k+1) <= c sigma^2(t_k). */
export function substepTimes(proc: SJDProcess, t: number, s: number, c: number): number[] {
  const out = [t];
  for (let x = t; x > s; ) {
    const stiff = proc.vp.beta(x) / Math.max(proc.vp.sigma2(x), VARIANCE_FLOOR);
    x = Math.max(s, x - c / stiff);
    out.push(x);
  }
  return out;
}
