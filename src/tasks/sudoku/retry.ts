// Verify and retry: a board whose answer breaks the rules (check.ts, which reads the puzzle and the
// answer only, never a solution) is solved again from the start on a random symmetric copy of its
// puzzle (symmetry.ts: the same puzzle to the rules, another input to a network that is symmetric
// only as far as training made it), and the answer, mapped back, is checked again, while the
// board's NFE budget lasts. Every attempt's classifier evaluations count against the one budget, so
// a board never spends more than --nfe in all; a grid sampler spends its whole budget on the first
// attempt and is never retried. Attempt a draws the symmetries of the boards still failing, in
// puzzle order, from a generator seeded by (seed, a), and samples them together with seed
// retrySeed(seed, a), each under the budget it has left (one batch, whatever the budgets: the
// driver ends each row at its own cap): the same seed gives the same boards. With `remask` a retry
// first starts from the cells the last answer got consistent (kept-cells.ts), then from fewer, then
// from the puzzle, and so on in turn. A batch solve and a stream take one path: the solve is a
// generator of the attempts' steps (a batch solve watches none and drains it; a stream watches
// every one, a retry's seen on the puzzle itself).
import { shown, stepGenerator, type TrajectoryStep, type Watch } from '../../sampling/index.js';
import { nextStart, type RetryStart, remaskedPuzzle } from './kept-cells.js';
import type { Board } from './puzzle/board.js';
import { answerProblems } from './puzzle/check.js';
import {
  applySymmetry,
  type BoardSymmetry,
  drawBoardSymmetries,
  inverseDigits,
  invertSymmetry,
} from './symmetry.js';

/** The checked boards (the last attempt's for each), NFE over all attempts, the first trajectory. */
export interface SolveResult extends AttemptResult {
  solved: number; // boards with no problem
  firstSolved: number; // boards the first attempt solved
  attempts: number[]; // per board, the attempts it took
}

/**
 * Attempts after the first unless told otherwise: enough that the adaptive samplers' budget
 * (DEFAULT_ADAPTIVE_NFE, about 32 NFE an attempt) usually ends them first.
 */
export const DEFAULT_RETRIES = 32;

/** What one attempt returns: boards checked against their puzzles, and their NFE. */
export interface AttemptResult {
  boards: Board[];
  /** per board, why it does not solve its puzzle (answerProblems); empty when it does */
  problems: string[][];
  nfe: number[]; // per board, the classifier evaluations it took part in
  trajectory?: TrajectoryStep[];
}

/**
 * Solves `puzzles` once, board n with an NFE budget of `budgets[n]` and all with the sampler
 * seed `seed`, step by step (null for a step not watched).
 */
export type Attempt = (
  puzzles: Board[],
  budgets: readonly number[],
  seed: number,
  watch: Watch,
) => Generator<TrajectoryStep | null, AttemptResult>;

export interface RetryOptions {
  nfe: number; // the budget per board, all attempts together
  seed: number;
  retries: number; // attempts after the first, at most
  minNfe: number; // the least budget an attempt can run on (the sampler's NFE per step)
  /** retry from the answer's consistent cells first (kept-cells.ts): remask, widen, restart, ... */
  remask?: boolean;
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

/** Solves of consecutive chunks of puzzles as one (the first one's trajectory, if any). */
export function joinSolves(parts: SolveResult[]): SolveResult {
  const joined: SolveResult = {
    boards: parts.flatMap((p) => p.boards),
    problems: parts.flatMap((p) => p.problems),
    nfe: parts.flatMap((p) => p.nfe),
    attempts: parts.flatMap((p) => p.attempts),
    solved: parts.reduce((a, p) => a + p.solved, 0),
    firstSolved: parts.reduce((a, p) => a + p.firstSolved, 0),
  };
  return parts[0]?.trajectory ? { ...joined, trajectory: parts[0].trajectory } : joined;
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

/**
 * A step of an attempt on the moved puzzles, seen on the puzzles themselves (board j moved by
 * syms[j]), NFE counted from `spent` (what the first board had spent before).
 */
function stepBack(s: TrajectoryStep, syms: BoardSymmetry[], spent: number): TrajectoryStep {
  const out: TrajectoryStep = {
    t: s.t,
    nfe: s.nfe + spent,
    committed: new Uint8Array(s.committed.length),
    tokens: new Array<number>(s.tokens.length),
    yNorm: new Float32Array(s.yNorm.length),
    argmax: new Int32Array(s.argmax.length),
    confidence: new Float32Array(s.confidence.length),
  };
  syms.forEach((sym, j) => {
    const back = inverseDigits(sym);
    const token = (v: number) => (v < 0 ? v : back[v]!);
    const at = j * sym.src.length;
    sym.src.forEach((i, k) => {
      out.committed[at + i] = s.committed[at + k]!;
      out.tokens[at + i] = token(s.tokens[at + k]!);
      out.yNorm[at + i] = s.yNorm[at + k]!;
      out.argmax[at + i] = token(s.argmax[at + k]!);
      out.confidence[at + i] = s.confidence[at + k]!;
    });
  });
  return out;
}

/**
 * Solves `puzzles` by `attempt`, retrying every board that fails while its budget lasts: yields
 * the attempts' steps, the first attempt's as `watch` says, a retry's (watched only when `watch`
 * is 'all') seen on the puzzles themselves with the NFE counted over all attempts.
 */
export function* solveWithRetries(
  attempt: Attempt,
  puzzles: Board[],
  o: RetryOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, SolveResult> {
  checkRetries(o.retries);
  const whole = puzzles.map(() => o.nfe); // every board's budget, for the first attempt
  const r = started(puzzles, yield* attempt(puzzles, whole, o.seed, watch));
  const again: Watch = watch === 'all' ? 'all' : 'none';
  // how each board's next retry starts (kept-cells.ts); every retry restarts without o.remask
  const starts: RetryStart[] = puzzles.map(() => (o.remask ? 'remask' : 'restart'));
  const startOf = (i: number): Board =>
    starts[i] === 'restart'
      ? puzzles[i]!
      : remaskedPuzzle(puzzles[i]!, r.boards[i]!, starts[i] === 'widen');
  for (let a = 1; a <= o.retries; a++) {
    const failing = retryable(r, o);
    if (failing.length === 0) break;
    const syms = drawRetrySymmetries(failing.length, o.seed, a);
    const budgets = failing.map((i) => o.nfe - r.nfe[i]!);
    const images = failing.map((i, k) => applySymmetry(startOf(i), syms[k]!));
    const run = attempt(images, budgets, retrySeed(o.seed, a), again);
    const got = yield* shown(run, (s) => stepBack(s, syms, o.nfe - budgets[0]!));
    failing.forEach((i, k) => {
      record(r, i, puzzles[i]!, got.boards[k]!, syms[k]!, got.nfe[k]!);
      if (o.remask) starts[i] = nextStart(starts[i]!);
    });
  }
  return r;
}
