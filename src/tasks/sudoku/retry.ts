// Verify and retry: a board whose answer breaks the rules (check.ts, which reads the puzzle and the
// answer only, never a solution) is solved again from the start on a random symmetric copy of its
// puzzle (symmetry.ts: the same puzzle to the rules, another input to a network that is symmetric
// only as far as training made it), and the answer, mapped back, is checked again, while the
// board's NFE budget lasts. Every attempt's classifier evaluations count against the one budget, so
// a board never spends more than --nfe in all; a grid sampler spends its whole budget on the first
// attempt and is never retried. The boards are the rows of a refilled batch (sampling/loop.ts):
// a board's retry is queued as soon as its answer is checked, ahead of the boards not yet started,
// and takes the next free slot. Board n's attempt a is keyed by (seed, n, a): its symmetry and its
// sampler draws, so a board's answer does not depend on the boards beside it. With `remask` a
// retry first starts from the cells the last answer got consistent (kept-cells.ts), then from
// fewer, then from the puzzle, and so on in turn.
import {
  type RowAnswer,
  type RowJob,
  type RowSource,
  rowKey,
  type TrajectoryStep,
} from '../../sampling/index.js';
import { TorchGenerator } from '../../torch/index.js';
import { nextStart, type RetryStart, remaskedPuzzle } from './kept-cells.js';
import { type Board, CELLS } from './puzzle/board.js';
import { answerProblems } from './puzzle/check.js';
import { startOrder } from './start-order.js';
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

export interface RetryOptions {
  nfe: number; // the budget per board, all attempts together
  seed: number;
  retries: number; // attempts after the first, at most
  minNfe: number; // the least budget an attempt can run on (the sampler's NFE per step)
  /** retry from the answer's consistent cells first (kept-cells.ts): remask, widen, restart, ... */
  remask?: boolean;
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

/** A board as a row's condition: its clues committed, digit v as token v - 1. */
export function boardCondition(board: Board): { tokens: number[]; mask: number[] } {
  return {
    tokens: Array.from(board, (v) => (v > 0 ? v - 1 : 0)),
    mask: Array.from(board, (v) => (v > 0 ? 1 : 0)),
  };
}

/** The symmetry of board `id`'s attempt `a` >= 1, keyed by (seed, id, a) alone. */
export function retrySymmetry(seed: number, id: number, a: number): BoardSymmetry {
  return drawBoardSymmetries(1, new TorchGenerator(rowKey(seed, id, a, -2)))[0]!; // no draw of a row uses -2
}

/** The identity: attempt 0 sees the puzzle itself. */
export const IDENTITY: BoardSymmetry = {
  src: Array.from({ length: CELLS }, (_, i) => i),
  digits: Array.from({ length: 9 }, (_, d) => d),
};

/**
 * The boards of `puzzles` (board k has id first + k: its index in the whole set, so that a set
 * split into parts solves as it does whole) as the rows of a refilled batch, started hardest first
 * (start-order.ts), each retried while it breaks the rules and its budget lasts: a retry waits
 * ahead of the boards not yet started.
 * `result` holds each board's last checked answer, its NFE over all attempts and its attempts.
 */
export class RetrySource implements RowSource {
  readonly result: SolveResult;
  /** per board, whether its last attempt has been checked and no retry follows */
  readonly settled: boolean[];
  readonly #puzzles: Board[];
  readonly #first: number;
  readonly #o: RetryOptions;
  readonly #retries: RowJob[] = []; // waiting, first in first out
  readonly #syms = new Map<RowJob, BoardSymmetry>(); // each retry's symmetry
  readonly #starts: RetryStart[];
  readonly #order: number[]; // the boards in the order they start (start-order.ts)
  #next = 0;
  /** told each board as it settles (a progress report) */
  onSettled?: (k: number) => void;

  constructor(puzzles: Board[], first: number, o: RetryOptions) {
    checkRetries(o.retries);
    this.#puzzles = puzzles;
    this.#first = first;
    this.#o = o;
    // how each board's next retry starts (kept-cells.ts); every retry restarts without o.remask
    this.#starts = puzzles.map(() => (o.remask ? 'remask' : 'restart'));
    this.settled = puzzles.map(() => false);
    this.#order = startOrder(puzzles);
    this.result = {
      boards: puzzles.map((p) => p.slice()),
      problems: puzzles.map(() => []),
      nfe: puzzles.map(() => 0),
      attempts: puzzles.map(() => 0),
      solved: 0,
      firstSolved: 0,
    };
  }

  take(): RowJob | undefined {
    const retry = this.#retries.shift();
    if (retry) return retry;
    if (this.#next >= this.#puzzles.length) return undefined;
    const k = this.#order[this.#next++]!;
    const puzzle = this.#puzzles[k]!;
    return {
      seed: this.#o.seed,
      id: this.#first + k,
      attempt: 0,
      budget: this.#o.nfe,
      condition: boardCondition(puzzle),
    };
  }

  done(job: RowJob, answer: RowAnswer): void {
    const k = job.id - this.#first;
    const r = this.result;
    const puzzle = this.#puzzles[k]!;
    const image = Uint8Array.from(answer.tokens, (v) => v + 1);
    r.boards[k] = invertSymmetry(image, this.symmetryOf(job));
    r.problems[k] = answerProblems(puzzle, r.boards[k]!);
    r.nfe[k]! += answer.nfe;
    r.attempts[k] = job.attempt + 1;
    const ok = r.problems[k]!.length === 0;
    if (ok) {
      r.solved++;
      if (job.attempt === 0) r.firstSolved++;
    }
    const left = this.#o.nfe - r.nfe[k]!;
    if (ok || job.attempt >= this.#o.retries || left < this.#o.minNfe) {
      this.settled[k] = true;
      this.onSettled?.(k);
      return;
    }
    const a = job.attempt + 1;
    const start = this.#starts[k]!;
    const from =
      start === 'restart' ? puzzle : remaskedPuzzle(puzzle, r.boards[k]!, start === 'widen');
    if (this.#o.remask) this.#starts[k] = nextStart(start);
    const sym = retrySymmetry(this.#o.seed, job.id, a);
    const retry: RowJob = {
      seed: this.#o.seed,
      id: job.id,
      attempt: a,
      budget: left,
      condition: boardCondition(applySymmetry(from, sym)),
    };
    this.#syms.set(retry, sym);
    this.#retries.push(retry);
  }

  /** The symmetry a row's board was moved by (the identity for a first attempt). */
  symmetryOf(job: RowJob): BoardSymmetry {
    return this.#syms.get(job) ?? IDENTITY;
  }

  /** Every board settled. */
  get complete(): boolean {
    return this.settled.every(Boolean);
  }
}

/**
 * A pass over slots holding the rows `jobs` (null: a free slot, shown as it is), seen on the
 * puzzles themselves: each slot mapped back by the symmetry its board was moved by.
 */
export function stepBack(s: TrajectoryStep, syms: BoardSymmetry[]): TrajectoryStep {
  const out: TrajectoryStep = {
    t: s.t,
    nfe: s.nfe,
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
