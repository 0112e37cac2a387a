// The remasking adaptive sampler (a search inside the sampler): the adaptive sampler
// (adaptive-step.ts) that undoes commits when a board breaks its task's rules, instead of carrying
// the break to the end. Before each step a board is broken when an active site has every value
// ruled out (ruledOut: the task's exclusion and earlier undoings), a committed site holds a value
// its committed peers rule out, or the task's rules see that no completion of the values left
// exists (Exclusion.stuck; Sudoku: a unit with a digit no cell of it can take). A broken board
// takes back its latest guess (latestGuess: the least sure commit made below the commit rule's
// threshold in its latest round that made one) and every commit made in the same or a later
// round (those were read with it in place), and rules the value it had out at that site (tabu)
// while the commits of earlier rounds stand, as a depth-first search rules out a failed guess in
// the branch it failed in: an undoing back to an earlier round frees it again. The undone sites
// return to active (remasked), with y drawn from the forward law at the board's new time t'
// (board-time.ts, from its active count): y = alpha(t') mu + sigma(t') xi, mu the blended mean
// (eq:vp-matched-mean) with committed sites on their tokens and each active site uniform over the
// values left to it (the rules' prior, no classifier pass); under the mask kernel the undone sites
// return to the mask point. The step then runs as the adaptive one from the new state: undoing
// costs no classifier evaluation, and every step's one NFE counts against the board's budget as
// before. A board nothing breaks is stepped exactly as by the adaptive sampler (the same draws).
// The verifier is the rules alone: what is undone is read from the rules and the commits' own
// sureness, never from a solution.

import { type Tensor, tensor, where, zeros } from '../torch/index.js';
import { adaptiveMove, DEFAULT_COMMIT } from './adaptive-step.js';
import { boardTimes } from './board-time.js';
import { ruledOut } from './exclusion.js';
import { siteIndices } from './site-draws.js';
import { CONDITIONED } from './state.js';
import type { StepRandom } from './step-random.js';
import type { AdaptiveStepFn, SamplerState, SearchState, StepContext } from './types.js';

/**
 * The undoings a board may make in one attempt unless the commit rule says otherwise. Past them
 * a broken board runs on as the adaptive sampler's would, and a retry (retry.ts) takes over.
 * Chosen with sudoku-h1 and Sudoku's rules with hidden singles (2026-11-30): on the 300 boards
 * of the guess-valid set, first attempts alone (seed 0), 8, 32, 64 and 128 undoings solve 92.3,
 * 97.0, 97.3 and 98.0% at 16.0, 18.1, 19.6 and 21.4 NFE a board; on 300 boards of hard50-test at
 * the defaults, 32 undoings solve 99.0% (first attempt 89.7%, 57.8 NFE a board) and 128 solve
 * 100.0% (97.7%, 50.8 NFE). The search being depth-first, more undoings only search further.
 */
export const DEFAULT_UNDOS = 128;

export const remaskStep: AdaptiveStepFn = (ctx, state, blanks, last, gen) => {
  // the rules read once a step: the state's values ruled out serve the classifier's pass too
  // when nothing was undone
  const { state: undone, ruled } = last
    ? { state, ruled: undefined }
    : undoing(ctx, state, blanks, gen);
  const search = undone.search!;
  const { next, jump, sure } = adaptiveMove(ctx, undone, blanks, last, gen, ruled);
  const round = search.order.amax(-1, true).add(1).expand(search.order.shape); // [B, L] the row's next round
  return {
    ...next,
    search: {
      sure: where(jump, sure.to('float32'), search.sure),
      order: where(jump, round, search.order),
      tabu: search.tabu,
      undos: search.undos,
    },
  };
};

/**
 * The state with each broken row's latest guess and every later commit undone (see above);
 * a value ruled out by an earlier undoing back to a later round than this one's is freed.
 */
export function undo(
  ctx: StepContext,
  state: SamplerState,
  blanks: Float64Array,
  gen: StepRandom,
): SamplerState {
  return undoing(ctx, state, blanks, gen).state;
}

/** undo's state, with the values ruled out on it [B, L, K] when it is `state` itself (nothing undone). */
function undoing(
  ctx: StepContext,
  state: SamplerState,
  blanks: Float64Array,
  gen: StepRandom,
): { state: SamplerState; ruled?: Tensor } {
  const s: SearchState | undefined = state.search;
  if (!s)
    throw new Error('the adaptive-remask sampler needs its search record (the driver makes it)');
  if (!ctx.exclude)
    throw new Error(
      "the adaptive-remask sampler undoes what breaks a task's rules: it needs them (Sudoku's, on unless --no-rules)",
    );
  const cap = ctx.commit?.undos ?? DEFAULT_UNDOS;
  const ruled = ruledOut(ctx, state)!; // [B, L, K]
  const { committed, tokens } = state; // [B, L]
  const [, L, K] = ruled.shape as [number, number, number];
  const own = tokens.clamp(0, K - 1); // [B, L]
  const dead = ruled.all(-1).logicalAnd(committed.logicalNot()); // [B, L]
  const mine = s.sure.lt(CONDITIONED).logicalAnd(committed); // [B, L] commits that can be undone
  const clash = ruled.gather(-1, own.unsqueeze(-1)).squeeze(-1).logicalAnd(mine); // [B, L]
  const stuck = ctx.exclude.stuck?.(ruled.logicalNot(), tokens, committed); // [B, 1]
  const met = dead.logicalOr(clash).any(-1, true); // [B, 1]
  const broken = (stuck ? met.logicalOr(stuck) : met)
    .logicalAnd(mine.any(-1, true))
    .logicalAnd(s.undos.lt(cap)); // [B, 1]
  if (!(broken.any().item() > 0)) return { state, ruled };
  const g = latestGuess(mine, s, ctx.commit?.threshold ?? DEFAULT_COMMIT.threshold); // [B, 1]
  const from = s.order.gather(-1, g); // [B, 1] its round
  const back = mine.logicalAnd(s.order.ge(from)).logicalAnd(broken); // [B, L] commits undone
  const guess = g.squeeze(-1).oneHot(L).to('bool').logicalAnd(broken); // [B, L]
  // a value ruled out by an undoing back to round r holds while the commits of rounds before r
  // stand: going back to an earlier round frees it (the branch it was ruled out in is gone)
  const at = from.unsqueeze(-1); // [B, 1, 1]
  const freed = s.tabu.gt(at).logicalAnd(broken.unsqueeze(-1)); // [B, L, K]
  const failed = guess.unsqueeze(-1).logicalAnd(own.oneHot(K).to('bool')); // [B, L, K]
  const tabu = where(failed, at, s.tabu.maskedFill(freed, 0)); // [B, L, K] int32
  const kept = committed.logicalAnd(back.logicalNot()); // [B, L]
  const search: SearchState = {
    sure: where(back, 0, s.sure),
    order: where(back, 0, s.order),
    tabu,
    undos: s.undos.add(broken.to('int32')),
  };
  const next: SamplerState = { y: state.y, committed: kept, tokens, search };
  const redrawn = forwardDraw(ctx, next, blanks, broken.squeeze(-1), gen);
  return { state: { ...next, y: where(back.unsqueeze(-1), redrawn, state.y) } };
}

/**
 * The commit a broken row takes back [B, 1] (mine [B, L]: its commits that can be undone): the
 * least sure guess of its latest round that made one, a guess being a commit made below the
 * commit rule's threshold (the step's most sure site when none reached it); the least sure commit
 * when the row made no guess. Guesses are taken back latest first, as a depth-first search
 * backtracks, so a value is ruled out in the branch where it failed and freed when the search
 * leaves that branch: the search is complete given enough undoings. (Before 2026-11-30 the least
 * sure commit of any round was taken back: it could rule out a right guess made before the wrong
 * one, and the search then cycled; docs/sudoku-hard.md.)
 */
function latestGuess(mine: Tensor, s: SearchState, threshold: number): Tensor {
  const guesses = mine.logicalAnd(s.sure.lt(threshold)); // [B, L]
  const least = where(mine, s.sure, CONDITIONED + 1).argmin(-1, true); // [B, 1]
  // rounds are whole numbers and sure < 1 on guesses: the latest round first, then the least sure
  const key = where(guesses, s.order.to('float32').sub(s.sure.mul(0.5)), -1); // [B, L]
  return where(guesses.any(-1, true), key.argmax(-1, true), least);
}

/**
 * y [B, L, d] from the forward law at each row's board time given its committed sites, the
 * active ones uniform over the values left to them (all values where none is left); the noise
 * drawn for the `rows` [B] bool that are redrawn only (0 elsewhere, which no caller reads), a row
 * at a time, so that a row's draws do not depend on the rows beside it (step-random.ts). The variance
 * is sigma^2(t'): the law's own at eta = 1, where v_t(tau) does not depend on the unstick time;
 * at eta < 1 it stands in for the mixture over tau (corrupt.ts draws tau; here none is known).
 */
function forwardDraw(
  ctx: StepContext,
  state: SamplerState,
  blanks: Float64Array,
  rows: Tensor,
  gen: StepRandom,
): Tensor {
  const proc = ctx.process;
  const [B, L] = state.committed.shape as [number, number];
  const d = ctx.anchors.size(1);
  if (proc.config.kernel !== 'vp') return state.y.mul(0); // the mask point
  const left = ruledOut(ctx, state)!.logicalNot().to('float64'); // [B, L, K]
  const open = left.sum(-1, true); // [B, L, 1]
  const prior = where(open.gt(0), left.div(open.clamp(1, null)), 1 / left.size(-1)); // [B, L, K]
  const mu = proc.blendedMean(prior, ctx.anchors, state); // [B, L, d]
  const t = boardTimes(proc, state.committed.logicalNot().sum(-1).toArray(), blanks); // [B]
  const alpha = tensor(
    Array.from(t, (tb) => proc.vp.alpha(tb)),
    [B, 1, 1],
    'float64',
  );
  const sigma = tensor(
    Array.from(t, (tb) => Math.sqrt(proc.vp.sigma2(tb))),
    [B, 1, 1],
    'float64',
  );
  const redraw = rows.toArray() as number[]; // [B] 0/1
  const noise = gen.randnRows(
    redraw.map((r) => (r ? L : 0)),
    [d],
    'float64',
  ); // [rows * L, d]
  const idx = siteIndices(rows.unsqueeze(-1).expand([B, L])); // [rows * L]
  const n = idx.size(0);
  const xi = zeros([B * L, d], 'float64')
    .scatter(0, idx.unsqueeze(1).expand([n, d]), noise)
    .view([B, L, d]);
  return mu.mul(alpha).add(xi.mul(sigma)).to(state.y.dtype);
}
