// Solving Sudoku with a trained classifier: clues are conditioned (committed from the start and
// re-clamped each step), the blanks are sampled by a named sampler (the commands' default: the
// adaptive sampler that undoes what breaks Sudoku's rules; the confidence policy, Alg. 2 with a
// commit schedule: this project's, the paper names none);
// digits 1..9 are tokens 0..8. An adaptive sampler solves the boards as the rows of one refilled
// batch of `batch` slots (sampling/loop.ts), each retried while it breaks the rules (retry.ts),
// board n keyed by (seed, n): its answer is the same alone, in any batch, in any part of a set
// split across processes (solve-pool.ts). A grid sampler solves chunks of `batch` boards, each
// seeded by its first index. Every returned board is checked against the rules (check.ts): a
// sampler's answer is not taken on trust. The classifier evaluations each board took are
// reported (the adaptive sampler stops a board when it is filled). What a solve uses unless told
// otherwise is solve-defaults.ts's; solving groups of puzzles each on its own, solve-grouped.ts's.
import type { Network } from '../../model/network.js';
import { networkLength } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import {
  type BatchedSampleOptions,
  batchedSteps,
  type CommitRule,
  checkBatchSize,
  drain,
  type GridKind,
  getSampler,
  modelClassifier,
  type RefillOptions,
  type RefillStep,
  refillSteps,
  samplingSteps,
  shown,
  type TrajectoryStep,
  type Watch,
} from '../../sampling/index.js';
import { type Tensor, tensor, tidy } from '../../torch/index.js';
import { maxOf } from '../../util/fold.js';
import type { Board } from './puzzle/board.js';
import { answerProblems } from './puzzle/check.js';
import {
  DEFAULT_RETRIES,
  IDENTITY,
  joinSolves,
  type RetryOptions,
  RetrySource,
  type SolveResult,
  stepBack,
} from './retry.js';
import { sudokuRules } from './rules.js';
import { defaultSudokuBatch, SUDOKU_SAMPLING } from './solve-defaults.js';

export type { SolveResult } from './retry.js';
// Sudoku's sampling defaults, also from here (spec.ts reads them from this module)
export { SUDOKU_SAMPLING } from './solve-defaults.js';

export interface SolveOptions {
  sampler: SamplerName; // a registered sampler: 'adaptive', 'confidence', 'sjd', ...
  nfe: number; // the budget per board
  commit?: CommitRule; // the adaptive sampler's (its default when absent)
  temperature?: number;
  grid?: GridKind;
  seed: number;
  batch?: number;
  record?: boolean; // trajectory of the first batch
  rules?: boolean; // rule out digits committed peers hold (rules.ts)
  retries?: number; // attempts after the first (retry.ts; DEFAULT_RETRIES when absent)
  remask?: boolean; // retries start from the answer's consistent cells first (kept-cells.ts)
  /** told the sampler steps (batch passes of the network) taken so far (a progress report) */
  onStep?: (steps: number) => void;
  /** told each board as it settles: solved, or out of attempts or budget (a progress report) */
  onBoard?: () => void;
  /**
   * false: an adaptive sampler's batch takes new boards only when every slot is free (waits for
   * its slowest board: the batching before refill, kept to measure against); default true
   */
  refill?: boolean;
}

/** The batched sampler's options for a grid sampler's `puzzles`: clues conditioned. */
function solveOptions(puzzles: Board[], o: SolveOptions): BatchedSampleOptions {
  return {
    n: puzzles.length,
    batchSize: o.batch ?? defaultSudokuBatch(),
    sampler: o.sampler,
    nfe: o.nfe,
    commit: o.commit,
    exclude: o.rules ? sudokuRules : undefined,
    temperature: o.temperature ?? SUDOKU_SAMPLING.temperature,
    topP: SUDOKU_SAMPLING.topP,
    grid: o.grid ?? SUDOKU_SAMPLING.grid,
    seed: o.seed,
    record: o.record,
    condition: (start, B) => {
      const flat = new Float64Array(B * 81);
      for (let n = 0; n < B; n++) flat.set(puzzles[start + n]!, n * 81);
      const digits = tensor(flat, [B, 81], 'float64'); // [B, 81] 0 = blank
      return { tokens: digits.sub(1).clamp(0, null).to('int64'), mask: digits.gt(0) };
    },
  };
}

/** A board's retries under `o` (its own rows' budget, attempts and restarts: retry.ts). */
export function retryOptions(o: SolveOptions): RetryOptions {
  return {
    nfe: o.nfe,
    seed: o.seed,
    retries: o.retries ?? DEFAULT_RETRIES,
    minNfe: getSampler(o.sampler).nfePerStep,
    remask: o.remask,
  };
}

/**
 * What an adaptive solve under `o` asks of its refilled batch beyond the model (the slots, the
 * sampler and its settings, the rules); the rows carry the rest (seed, budget, retries: retry.ts).
 * Solves whose settings are equal can share one batch (the server's, serve/sudoku-batch.ts).
 */
export type RefillSettings = Omit<RefillOptions, 'process' | 'classifier' | 'anchors' | 'length'>;

/** An adaptive solve's RefillSettings under `o`, Sudoku's defaults where it gives none. */
export function refillSettings(o: SolveOptions): RefillSettings {
  return {
    sampler: o.sampler,
    batchSize: o.batch ?? defaultSudokuBatch(),
    temperature: o.temperature ?? SUDOKU_SAMPLING.temperature,
    topP: SUDOKU_SAMPLING.topP,
    commit: o.commit,
    exclude: o.rules ? sudokuRules : undefined,
    refill: o.refill,
  };
}

/** The refilled batch's options for `model` with `settings`; the caller frees `anchors` [K, d]. */
export function refillOptions(
  model: Network,
  proc: SJDProcess,
  anchors: Tensor,
  settings: RefillSettings,
): RefillOptions {
  return {
    process: proc,
    classifier: modelClassifier(model),
    anchors,
    length: networkLength(model),
    ...settings,
  };
}

/** A part of a set of puzzles: its boards and the index of its first in the set. */
export interface SolvePart {
  start: number;
  puzzles: Board[];
}

/**
 * The set in parts of `size` boards (the last may be shorter), by their first index: a grid
 * sampler's chunks, a solve pool's parts; a board's answer does not depend on the part it is in.
 */
export function solveChunks(puzzles: Board[], size: number): SolvePart[] {
  checkBatchSize(size);
  const chunks: SolvePart[] = [];
  for (let start = 0; start < puzzles.length; start += size)
    chunks.push({ start, puzzles: puzzles.slice(start, start + size) });
  return chunks;
}

/** A solve as it goes: its result so far (settled boards final) and which boards are settled. */
export interface SolveProgress {
  result: SolveResult;
  settled: boolean[];
}

/**
 * An adaptive sampler's solve of a part: its boards as the rows of a refilled batch with their
 * retries (retry.ts RetrySource), each pass seen on the puzzles (null where not watched);
 * `onSettled` is told each board as it settles.
 */
function* refilledSolve(
  model: Network,
  proc: SJDProcess,
  part: SolvePart,
  o: SolveOptions,
  watch: Watch,
  progress: SolveProgress | undefined,
): Generator<TrajectoryStep | null, SolveResult> {
  const source = new RetrySource(part.puzzles, part.start, retryOptions(o));
  if (progress) {
    progress.result = source.result;
    progress.settled = source.settled;
  }
  source.onSettled = () => o.onBoard?.();
  const anchors = tidy(() => model.anchors.forward().detach()); // [K, d]
  const run = refillSteps(refillOptions(model, proc, anchors, refillSettings(o)), source, watch);
  try {
    // each pass seen on the puzzles: every slot mapped back by its board's symmetry
    const back = (s: RefillStep) =>
      stepBack(
        s.step,
        s.jobs.map((j) => (j ? source.symmetryOf(j) : IDENTITY)),
      );
    const r = yield* samplingSteps(run, back);
    r.tokens.dispose();
    r.y.dispose();
    return source.result;
  } finally {
    anchors.dispose();
  }
}

/** A grid sampler's solve of a part: chunks of `o.batch` boards, each seeded seed + its first index. */
function* gridSolve(
  model: Network,
  proc: SJDProcess,
  part: SolvePart,
  o: SolveOptions,
  watch: Watch,
  progress: SolveProgress | undefined,
): Generator<TrajectoryStep | null, SolveResult> {
  const parts: SolveResult[] = [];
  for (const chunk of solveChunks(part.puzzles, o.batch ?? defaultSudokuBatch())) {
    const seen = chunk.start === 0 || watch === 'all' ? watch : 'none';
    const options = solveOptions(chunk.puzzles, { ...o, seed: o.seed + part.start + chunk.start });
    const r = yield* batchedSteps(model, proc, options, seen);
    const boards = r.rows.map((row) => Uint8Array.from(row, (v) => v + 1));
    const problems = boards.map((b, n) => answerProblems(chunk.puzzles[n]!, b));
    const solved = problems.filter((p) => p.length === 0).length;
    parts.push({
      boards,
      problems,
      nfe: r.rowNfe,
      solved,
      firstSolved: solved,
      attempts: boards.map(() => 1),
    });
    for (const _ of chunk.puzzles) o.onBoard?.();
    if (progress) {
      progress.result = joinSolves(parts);
      progress.settled = progress.result.boards.map(() => true);
    }
  }
  return joinSolves(parts);
}

/**
 * The one solving path (batch solves and streams alike) for a part of a set: a generator of
 * steps (null where not watched; `first` watches the first attempts of the first batch) returning
 * the checked boards; `progress`, if given, follows the solve as it goes.
 */
export function solveSteps(
  model: Network,
  proc: SJDProcess,
  part: SolvePart,
  o: SolveOptions,
  watch: Watch,
  progress?: SolveProgress,
): Generator<TrajectoryStep | null, SolveResult> {
  return getSampler(o.sampler).kind === 'adaptive'
    ? refilledSolve(model, proc, part, o, watch, progress)
    : gridSolve(model, proc, part, o, watch, progress);
}

export function emptySolve(): SolveResult {
  return { boards: [], problems: [], nfe: [], attempts: [], solved: 0, firstSolved: 0 };
}

/** Solves `puzzles` (solveSteps drained; the first batch's trajectory when `record`). */
export function solveSudoku(
  model: Network,
  proc: SJDProcess,
  puzzles: Board[],
  o: SolveOptions,
): SolveResult {
  return drain(
    solveSteps(model, proc, { start: 0, puzzles }, o, o.record ? 'first' : 'none'),
    o.record === true,
    o.onStep,
  );
}

/**
 * One puzzle solved step by step (the web page's stream; sec:exp-sudoku): yields each
 * sampler step over the board's 81 cells (tokens are digits - 1), a retry's too (seen on the
 * puzzle itself), and returns what solveSudoku returns for [puzzle] with the same options: the
 * same board as `sjd solve` for the same seed.
 */
export function solveSudokuSteps(
  model: Network,
  proc: SJDProcess,
  puzzle: Board,
  o: SolveOptions,
): Generator<TrajectoryStep, SolveResult> {
  return shown(solveSteps(model, proc, { start: 0, puzzles: [puzzle] }, o, 'all'));
}

/** The classifier evaluations the boards took: mean and max over boards. */
export function nfeSummary(nfe: number[]): { nfe_mean: number; nfe_max: number } {
  if (nfe.length === 0) return { nfe_mean: 0, nfe_max: 0 };
  return { nfe_mean: nfe.reduce((a, b) => a + b, 0) / nfe.length, nfe_max: maxOf(nfe) };
}
