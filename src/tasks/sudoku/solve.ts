// Solving Sudoku with a trained classifier: clues are conditioned (committed from the start and
// re-clamped each step), the blanks are sampled by a named sampler (the commands' default: the
// adaptive sampler that undoes what breaks Sudoku's rules; the paper's confidence policy, Alg. 2)
// in chunks of `batch` boards, each solved on its own with its retries (retry.ts) and seeded by
// its first index, so that chunks can be solved in any process (solve-pool.ts); digits 1..9 are
// tokens 0..8. Every returned board is checked against the rules (check.ts): a sampler's answer
// is not taken on trust. The classifier evaluations each board took are reported (the adaptive
// sampler stops a board when it is filled).
import { setImmediate as turn } from 'node:timers/promises';
import type { Network } from '../../model/network.js';
import type { SJDProcess } from '../../process/index.js';
import {
  type BatchedSampleOptions,
  type BatchedSampleResult,
  batchedSteps,
  type CommitRule,
  checkBatchSize,
  DEFAULT_COMMIT,
  DEFAULT_UNDOS,
  drain,
  type GridKind,
  getSampler,
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
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

export type { SolveResult } from './retry.js';

/** Boards a sampler pass takes at most unless told otherwise (the rest wait for the next chunk). */
export const DEFAULT_SUDOKU_BATCH = 256;

/**
 * Whether `sjd solve`, `sjd eval sudoku`, `sjd demo` and the page use Sudoku's rules unless told
 * otherwise (a digit a clue or committed peer holds is ruled out; the paper's samplers do not, and
 * neither do the comparisons and training evaluations, which call solveSudoku without them).
 */
export const DEFAULT_SUDOKU_RULES = true;

/**
 * The sampler of those commands unless told otherwise: with the rules, the adaptive sampler
 * that undoes what breaks them (remask-step.ts; docs/sudoku-hard.md: 99.41% against 99.02% for
 * the plain one on 512 no-guess puzzles, 94.0% against 90.5% on 200 that need guessing);
 * without them, the adaptive sampler.
 */
export function defaultSudokuSampler(rules: boolean = SUDOKU_SAMPLING.rules!): string {
  return rules ? 'adaptive-remask' : 'adaptive';
}

/** A solve's rules and sampler, each defaulted where not given (the sampler by the rules). */
export function sudokuSampling(o: { sampler?: string; rules?: boolean }): {
  sampler: string;
  rules: boolean;
} {
  const rules = o.rules ?? SUDOKU_SAMPLING.rules!;
  return { sampler: o.sampler ?? defaultSudokuSampler(rules), rules };
}

/**
 * An adaptive sampler's NFE cap per board unless told otherwise (adaptive, adaptive-remask), for
 * all attempts together: it stops when a board is full (the shipped model's first attempt spends
 * about 17 on average), so the cap is left to the retries of the boards that break (retry.ts).
 * Chosen with DEFAULT_RETRIES on validation sets (docs/sudoku-hard.md) as the least of 512, 1,024
 * and 2,048 at which both meet issue #32's targets: on 300 puzzles of 1+ search nodes 98.67% at
 * 512 (16 retries), 99.33% at 1,024 (32), 100% at 2,048 (64); on 300 of 20+ nodes 97.33%,
 * 98.00%, 98.67%. A board that never solves spends the whole cap (about 10 ms a pass alone on 2
 * cores), so the larger cap's 0.7 points cost twice the time on every such board. On the
 * no-guess set, 100% of 2,000 at 1,024, at the boards/s of 512 (the boards that solve stop when
 * filled).
 */
export const DEFAULT_ADAPTIVE_NFE = 1024;

/**
 * The NFE budget per board unless told otherwise: DEFAULT_ADAPTIVE_NFE for an adaptive sampler;
 * the grid samplers spend their budget, 32 as in the paper's table.
 */
export function defaultSudokuNfe(sampler: string = defaultSudokuSampler()): number {
  return getSampler(sampler).kind === 'adaptive' ? DEFAULT_ADAPTIVE_NFE : 32;
}

/**
 * Sudoku's sampling defaults (`sjd solve`, `sjd eval sudoku`, `sjd demo`, the page and
 * solveSudoku): the library's temperature, top-p and grid, with the sampler, budget and rules above.
 */
export const SUDOKU_SAMPLING: SamplingDefaults = {
  ...SAMPLING_DEFAULTS,
  sampler: () => defaultSudokuSampler(),
  nfe: defaultSudokuNfe,
  rules: DEFAULT_SUDOKU_RULES,
};

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
 * The one solving path (issue #28): the chunks of `o.batch` puzzles in turn, each solved on its
 * own with its retries (so a board depends on its chunk alone, and chunks may be solved in any
 * order or process: solve-pool.ts), as a generator of steps (null where not watched; `first`
 * watches the first chunk's first attempt) returning the checked boards.
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

/** A solve of groups of puzzles, each on its own: the merged result and each group's seconds. */
export interface GroupedSolve {
  result: SolveResult; // aligned with the puzzles, as one solve's (no trajectory)
  seconds: Record<string, number>; // wall time of each group's solve
  done: number[]; // the puzzles solved (all of them unless a solve stopped part-way), in order
}

/**
 * Solves the puzzles of each group (`groups[n]`: puzzle n's) on its own by `solve`, in the order
 * groups first appear, timing each: boards/s per group are then measured, not apportioned (`sjd
 * eval sudoku --by-nodes`). A group's boards equal `solve`'s on that group alone. A solve that
 * stopped part-way (`done` below its puzzles: a prefix) ends the grouped solve there.
 */
export async function solveGrouped(
  puzzles: Board[],
  groups: readonly string[],
  solve: (puzzles: Board[]) => SolveResult | Promise<SolveResult & { done?: number }>,
): Promise<GroupedSolve> {
  if (groups.length !== puzzles.length)
    throw new Error(`solveGrouped: ${groups.length} groups for ${puzzles.length} puzzles`);
  const n = puzzles.length;
  const result: SolveResult = {
    boards: new Array(n),
    problems: new Array(n),
    nfe: new Array(n),
    attempts: new Array(n),
    solved: 0,
    firstSolved: 0,
  };
  const seconds: Record<string, number> = {};
  const done: number[] = [];
  for (const g of new Set(groups)) {
    const idx = groups.flatMap((k, i) => (k === g ? [i] : []));
    const t0 = performance.now();
    const r: SolveResult & { done?: number } = await solve(idx.map((i) => puzzles[i]!));
    seconds[g] = (performance.now() - t0) / 1000;
    const solved = idx.slice(0, r.done ?? idx.length);
    solved.forEach((i, k) => {
      result.boards[i] = r.boards[k]!;
      result.problems[i] = r.problems[k]!;
      result.nfe[i] = r.nfe[k]!;
      result.attempts[i] = r.attempts[k]!;
      done.push(i);
    });
    result.solved += r.solved;
    result.firstSolved += r.firstSolved;
    if (solved.length < idx.length) break;
  }
  return { result, seconds, done: done.sort((a, b) => a - b) };
}

/**
 * One puzzle solved step by step (the web page's stream, issue #15; sec:exp-sudoku): yields each
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

/** How the boards were sampled, for the commands' output ("adaptive sampler (probability >= 0.9999)"). */
export function samplerLabel(sampler: string, commit?: CommitRule): string {
  if (getSampler(sampler).kind !== 'adaptive')
    return sampler === 'confidence' ? 'confidence policy' : `${sampler} sampler`;
  const rule = commit ?? DEFAULT_COMMIT;
  const undos = getSampler(sampler).search ? `, ${rule.undos ?? DEFAULT_UNDOS} undos` : '';
  return `${sampler} sampler (${rule.by} >= ${rule.threshold}${undos})`;
}

/** The classifier evaluations the boards took: mean and max over boards. */
export function nfeSummary(nfe: number[]): { nfe_mean: number; nfe_max: number } {
  if (nfe.length === 0) return { nfe_mean: 0, nfe_max: 0 };
  return { nfe_mean: nfe.reduce((a, b) => a + b, 0) / nfe.length, nfe_max: maxOf(nfe) };
}
