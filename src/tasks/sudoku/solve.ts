// Solving Sudoku with a trained classifier: clues are conditioned (committed from the start and
// re-clamped each step), the blanks are sampled by a named sampler (the commands' default: the
// adaptive sampler that undoes what breaks Sudoku's rules; the paper's confidence policy, Alg. 2)
// in chunks of `batch` boards, each solved on its own with its retries (retry.ts) and seeded by
// its first index, so that chunks can be solved in any process (solve-pool.ts); digits 1..9 are
// tokens 0..8. Every returned board is checked against the rules (check.ts): a sampler's answer
// is not taken on trust. The classifier evaluations each board took are reported (the adaptive
// sampler stops a board when it is filled). What a solve uses unless told otherwise is
// solve-defaults.ts's; solving groups of puzzles each on its own, solve-grouped.ts's.
import { setImmediate as turn } from 'node:timers/promises';
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  type BatchedSampleOptions,
  type BatchedSampleResult,
  batchedSteps,
  type CommitRule,
  checkBatchSize,
  drain,
  type GridKind,
  getSampler,
  shown,
  type TrajectoryStep,
  type Watch,
} from '../../sampling/index.js';
import { tensor } from '../../torch/index.js';
import { maxOf } from '../../util/fold.js';
import type { Board } from './puzzle/board.js';
import { answerProblems } from './puzzle/check.js';
import {
  type AttemptResult,
  DEFAULT_RETRIES,
  joinSolves,
  type RetryOptions,
  type SolveResult,
  solveWithRetries,
} from './retry.js';
import { sudokuRules } from './rules.js';
import { DEFAULT_SUDOKU_BATCH, SUDOKU_SAMPLING } from './solve-defaults.js';

export type { SolveResult } from './retry.js';
// Sudoku's sampling defaults, also from here (spec.ts reads them from this module)
export { SUDOKU_SAMPLING } from './solve-defaults.js';

export interface SolveOptions {
  sampler: string; // a registered sampler: 'adaptive', 'confidence', 'sjd', ...
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
}

/** The batched sampler's options for `puzzles`: clues conditioned (digit v is token v - 1). */
function solveOptions(puzzles: Board[], o: SolveOptions): BatchedSampleOptions {
  return {
    n: puzzles.length,
    batchSize: o.batch ?? DEFAULT_SUDOKU_BATCH,
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

/** The sampled token rows as boards, each checked against its puzzle. */
function checkedBoards(puzzles: Board[], r: BatchedSampleResult): AttemptResult {
  const boards = r.rows.map((row) => Uint8Array.from(row, (v) => v + 1));
  const problems = boards.map((b, n) => answerProblems(puzzles[n]!, b));
  return { boards, problems, nfe: r.rowNfe };
}

function retryOptions(o: SolveOptions): RetryOptions {
  return {
    nfe: o.nfe,
    seed: o.seed,
    retries: o.retries ?? DEFAULT_RETRIES,
    minNfe: getSampler(o.sampler).nfePerStep,
    remask: o.remask,
  };
}

/** The puzzles' chunks: `o.batch` boards each (the last may be shorter), by their first index. */
export function solveChunks(
  puzzles: Board[],
  o: SolveOptions,
): { start: number; puzzles: Board[] }[] {
  const size = o.batch ?? DEFAULT_SUDOKU_BATCH;
  checkBatchSize(size);
  const chunks: { start: number; puzzles: Board[] }[] = [];
  for (let start = 0; start < puzzles.length; start += size)
    chunks.push({ start, puzzles: puzzles.slice(start, start + size) });
  return chunks;
}

/**
 * One chunk's solve: its attempts through the batched sampler, seeded seed + start, with their
 * retries, as a generator of steps (null where not watched) returning the checked boards.
 */
function chunkSteps(
  model: Network,
  proc: SJDProcess,
  chunk: { start: number; puzzles: Board[] },
  o: SolveOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, SolveResult> {
  const own = { ...o, seed: o.seed + chunk.start };
  function* attempt(p: Board[], budgets: readonly number[], seed: number, w: Watch) {
    const nfe = maxOf(budgets);
    const options = { ...solveOptions(p, { ...own, nfe, seed }), budgets };
    return checkedBoards(p, yield* batchedSteps(model, proc, options, w));
  }
  return solveWithRetries(attempt, chunk.puzzles, retryOptions(own), watch);
}

/**
 * The one solving path (batch solves and streams alike): the chunks of `o.batch` puzzles in turn,
 * each solved on its own with its retries (so a board depends on its chunk alone, and chunks may be
 * solved in any order or process: solve-pool.ts), as a generator of steps (null where not watched;
 * `first` watches the first chunk's first attempt) returning the checked boards.
 */
function* solveSteps(
  model: Network,
  proc: SJDProcess,
  puzzles: Board[],
  o: SolveOptions,
  watch: Watch,
): Generator<TrajectoryStep | null, SolveResult> {
  const parts: SolveResult[] = [];
  for (const chunk of solveChunks(puzzles, o))
    parts.push(
      yield* chunkSteps(
        model,
        proc,
        chunk,
        o,
        chunk.start === 0 || watch === 'all' ? watch : 'none',
      ),
    );
  return joinSolves(parts);
}

/** One chunk solved (a solve pool's unit of work): chunkSteps drained, no trajectory. */
export function solveChunk(
  model: Network,
  proc: SJDProcess,
  chunk: { start: number; puzzles: Board[] },
  o: SolveOptions,
): SolveResult {
  return drain(chunkSteps(model, proc, chunk, o, 'none'), false);
}

/**
 * One chunk solved as solveChunk solves it, with a turn of the event loop between sampler steps,
 * so that a signal, a closed IPC channel or a timer is handled within a step (a fraction of a
 * second) rather than after the chunk (minutes); null when `stop` is aborted between steps (the
 * chunk's boards are not finished, and nothing of it is kept).
 */
export async function solveChunkInTurns(
  model: Network,
  proc: SJDProcess,
  chunk: { start: number; puzzles: Board[] },
  o: SolveOptions,
  stop?: AbortSignal,
): Promise<SolveResult | null> {
  const steps = chunkSteps(model, proc, chunk, o, 'none');
  try {
    for (;;) {
      if (stop?.aborted) return null;
      const r = steps.next();
      if (r.done) return r.value;
      await turn();
    }
  } finally {
    steps.return(undefined as never); // a stopped solve releases its tensors
  }
}

/** Solves `puzzles` (solveSteps drained; the first batch's trajectory when `record`). */
export function solveSudoku(
  model: Network,
  proc: SJDProcess,
  puzzles: Board[],
  o: SolveOptions,
): SolveResult {
  return drain(
    solveSteps(model, proc, puzzles, o, o.record ? 'first' : 'none'),
    o.record === true,
    o.onStep,
  );
}

/**
 * One puzzle solved step by step (the web page's stream; sec:exp-sudoku): yields each
 * sampler step over the board's 81 cells (tokens are digits - 1), a retry's too, and returns what
 * solveSudoku returns for [puzzle] with the same options: the same board as `sjd solve` for the
 * same seed.
 */
export function solveSudokuSteps(
  model: Network,
  proc: SJDProcess,
  puzzle: Board,
  o: SolveOptions,
): Generator<TrajectoryStep, SolveResult> {
  return shown(solveSteps(model, proc, [puzzle], o, 'all'));
}

/** The classifier evaluations the boards took: mean and max over boards. */
export function nfeSummary(nfe: number[]): { nfe_mean: number; nfe_max: number } {
  if (nfe.length === 0) return { nfe_mean: 0, nfe_max: 0 };
  return { nfe_mean: nfe.reduce((a, b) => a + b, 0) / nfe.length, nfe_max: maxOf(nfe) };
}
