// Verify and retry (issue #13): a board whose answer breaks the rules (check.ts, which reads the
// puzzle and the answer only, never a solution) is solved again from the start on a random
// symmetric copy of its puzzle (symmetry.ts: the same puzzle to the rules, another input to a
// network that is symmetric only as far as training made it), and the answer, mapped back, is
// checked again, while the board's NFE budget lasts. Every attempt's classifier evaluations
// count against the one budget, so a board never spends more than --nfe in all; a grid sampler
// spends its whole budget on the first attempt and is never retried. Attempt a draws the
// symmetries of the boards still failing, in puzzle order, from a generator seeded by
// (seed, a), and samples them with seed retrySeed(seed, a), grouped by the budget they have
// left: the same seed gives the same boards.
import { stepGenerator, type TrajectoryStep } from '../../sample/index.js';
import type { Board } from './board.js';
import { answerProblems } from './check.js';
import type { SolveResult } from './solve.js';
import {
  applySymmetry,
  type BoardSymmetry,
  drawBoardSymmetries,
  inverseDigits,
  invertSymmetry,
} from './symmetry.js';

/** Attempts after the first unless told otherwise (the budget usually ends them first). */
export const DEFAULT_RETRIES = 8;

/** What one attempt returns: boards checked against their puzzles, and their NFE. */
export interface AttemptResult {
  boards: Board[];
  /** per board, why it does not solve its puzzle (answerProblems); empty when it does */
  problems: string[][];
  nfe: number[]; // per board, the classifier evaluations it took part in
  trajectory?: TrajectoryStep[];
}

/** Solves `puzzles` once with an NFE budget of `nfe` each and the sampler seed `seed`. */
export type Attempt = (puzzles: Board[], nfe: number, seed: number) => AttemptResult;

/** The same for one puzzle, step by step (the web page's stream). */
export type AttemptSteps = (
  puzzle: Board,
  nfe: number,
  seed: number,
) => Generator<TrajectoryStep, AttemptResult>;

export interface RetryOptions {
  nfe: number; // the budget per board, all attempts together
  seed: number;
  retries: number; // attempts after the first, at most
  minNfe: number; // the least budget an attempt can run on (the sampler's NFE per step)
}

/** The sampler seed of attempt a >= 1 (apart from the first attempt's chunk seeds). */
export function retrySeed(seed: number, a: number): number {
  return seed + a * 1_000_000_007;
}

/** The symmetries of attempt a for the n boards it retries. */
function drawRetrySymmetries(n: number, seed: number, a: number): BoardSymmetry[] {
  return drawBoardSymmetries(n, stepGenerator(retrySeed(seed, a), -1)); // no sampler step uses -1
}

/** The boards that took more than one attempt. */
export function retriedBoards(attempts: readonly number[]): number {
  return attempts.filter((a) => a > 1).length;
}

export function checkRetries(retries: number): void {
  if (!(Number.isInteger(retries) && retries >= 0))
    throw new Error(`retries must be a whole number >= 0, got ${retries}`);
}

/** The first attempt's result as the solve's, before any retry. */
function started(puzzles: Board[], first: AttemptResult): SolveResult {
  const solved = first.problems.filter((p) => p.length === 0).length;
  return {
    ...first,
    boards: [...first.boards],
    problems: [...first.problems],
    nfe: [...first.nfe],
    solved,
    firstSolved: solved,
    attempts: puzzles.map(() => 1),
  };
}

/** Takes attempt `a`'s answer `image` (of the puzzle moved by `sym`) for board i of `r`. */
function record(
  r: SolveResult,
  i: number,
  puzzle: Board,
  image: Board,
  sym: BoardSymmetry,
  nfe: number,
) {
  r.boards[i] = invertSymmetry(image, sym);
  r.problems[i] = answerProblems(puzzle, r.boards[i]!);
  r.nfe[i]! += nfe;
  r.attempts[i]! += 1;
  if (r.problems[i]!.length === 0) r.solved += 1;
}

/** The boards still failing with budget for another attempt, in puzzle order. */
function retryable(r: SolveResult, o: RetryOptions): number[] {
  return r.problems.flatMap((p, i) => (p.length > 0 && o.nfe - r.nfe[i]! >= o.minNfe ? [i] : []));
}

/** Solves `puzzles` by `attempt`, retrying every board that fails while its budget lasts. */
export function solveWithRetries(attempt: Attempt, puzzles: Board[], o: RetryOptions): SolveResult {
  checkRetries(o.retries);
  const r = started(puzzles, attempt(puzzles, o.nfe, o.seed));
  for (let a = 1; a <= o.retries; a++) {
    const failing = retryable(r, o);
    if (failing.length === 0) break;
    const syms = drawRetrySymmetries(failing.length, o.seed, a);
    const byBudget = new Map<number, number[]>(); // budget left -> positions in `failing`
    failing.forEach((i, k) => {
      const left = o.nfe - r.nfe[i]!;
      const group = byBudget.get(left);
      if (group) group.push(k);
      else byBudget.set(left, [k]);
    });
    for (const [left, ks] of [...byBudget].sort((x, y) => y[0] - x[0])) {
      const images = ks.map((k) => applySymmetry(puzzles[failing[k]!]!, syms[k]!));
      const got = attempt(images, left, retrySeed(o.seed, a));
      ks.forEach((k, j) => {
        const i = failing[k]!;
        record(r, i, puzzles[i]!, got.boards[j]!, syms[k]!, got.nfe[j]!);
      });
    }
  }
  return r;
}

/** A step of an attempt on the moved puzzle, seen on the puzzle itself, NFE counted from `spent`. */
function stepBack(s: TrajectoryStep, sym: BoardSymmetry, spent: number): TrajectoryStep {
  const back = inverseDigits(sym);
  const token = (v: number) => (v < 0 ? v : back[v]!);
  const out: TrajectoryStep = {
    t: s.t,
    nfe: s.nfe + spent,
    committed: new Uint8Array(s.committed.length),
    tokens: new Array<number>(s.tokens.length),
    yNorm: new Float32Array(s.yNorm.length),
    argmax: new Int32Array(s.argmax.length),
    confidence: new Float32Array(s.confidence.length),
  };
  sym.src.forEach((i, k) => {
    out.committed[i] = s.committed[k]!;
    out.tokens[i] = token(s.tokens[k]!);
    out.yNorm[i] = s.yNorm[k]!;
    out.argmax[i] = token(s.argmax[k]!);
    out.confidence[i] = s.confidence[k]!;
  });
  return out;
}

/** Drains `run`, yielding each step through `f`; closing this closes `run`. */
function* mapped<R>(
  run: Generator<TrajectoryStep, R>,
  f: (s: TrajectoryStep) => TrajectoryStep,
): Generator<TrajectoryStep, R> {
  try {
    for (;;) {
      const x = run.next();
      if (x.done) return x.value;
      yield f(x.value);
    }
  } finally {
    run.return(undefined as R);
  }
}

/**
 * One puzzle step by step with the retries of solveWithRetries (the same boards for the same
 * options): yields every attempt's steps, a retry's seen on the puzzle itself with the NFE
 * counted over all attempts.
 */
export function* solveStepsWithRetries(
  attempt: AttemptSteps,
  puzzle: Board,
  o: RetryOptions,
): Generator<TrajectoryStep, SolveResult> {
  checkRetries(o.retries);
  const r = started([puzzle], yield* attempt(puzzle, o.nfe, o.seed));
  for (let a = 1; a <= o.retries && retryable(r, o).length > 0; a++) {
    const [sym] = drawRetrySymmetries(1, o.seed, a);
    const spent = r.nfe[0]!;
    const run = attempt(applySymmetry(puzzle, sym!), o.nfe - spent, retrySeed(o.seed, a));
    const got = yield* mapped(run, (s) => stepBack(s, sym!, spent));
    record(r, 0, puzzle, got.boards[0]!, sym!, got.nfe[0]!);
  }
  return r;
}
