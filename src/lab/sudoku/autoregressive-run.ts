// The autoregressive baselines in `sjd compare sudoku` (tab:sudoku_schedule_ablations: Shah et
// al. 2024's causal transformer, left-to-right and in the solver's order), beside the processes
// of process/choice.ts: their names on --models, their labels, and one run of one seed (trained
// at the comparison's size, steps and seed, then scored by greedy decoding on the held-out
// puzzles, the scores cached beside the run as the processes' are).
import { join } from 'node:path';
import type { Precision } from '../../model/precision.js';
import { canonicalProcessName, parseProcessName } from '../../process/index.js';
import { DECODE_BATCH, decodeGreedy } from '../../tasks/sudoku/autoregressive/decode.js';
import type { OrderName } from '../../tasks/sudoku/autoregressive/order.js';
import {
  loadAutoregressive,
  trainAutoregressive,
} from '../../tasks/sudoku/autoregressive/train.js';
import { scoreBoards } from '../../tasks/sudoku/metrics.js';
import { answerProblems } from '../../tasks/sudoku/puzzle/check.js';
import type { Augment } from '../../tasks/sudoku/symmetry.js';
import { hashPairs, type SudokuPairs } from '../../tasks/sudoku/task.js';
import { runState, type TrainHooks } from '../../train/index.js';
import { cached } from '../../util/cache.js';
import { distinct, listOf } from '../../util/flag-values.js';
import { keptResult } from '../kept-run.js';
import { FINAL_EVAL } from './final-eval.js';

/** The baselines by their --models name: the order each writes the board in. */
export const AR_MODELS: Record<string, { order: OrderName; label: string }> = {
  'ar-ltr': { order: 'ltr', label: 'Autoregressive, left-to-right' },
  'ar-solver': { order: 'solver', label: 'Autoregressive, solver order' },
};

export const isAutoregressive = (model: string): boolean => model in AR_MODELS;

/** `--models` of `sjd compare sudoku`: the processes' names and the baselines'. */
export const sudokuModelList = (value: string): string[] =>
  distinct(
    listOf(
      (name: string) => isAutoregressive(name) || parseProcessName(name),
      'expected a comma-separated list of models',
    )(value).map((name) => (isAutoregressive(name) ? name : canonicalProcessName(name))),
    (m) => m,
    (m) => `model '${m}'`,
  );

export interface ArScores {
  solveRate: number; // exact-match board accuracy of the greedy answers
  cellAccuracy: number; // over the blanks
  passesPerBoard: number; // network passes a board took part in
  brokenRules: number; // answers the rules check refuses (puzzle/check.ts answerProblems)
}

export interface ArRunOptions {
  size: string;
  mlpHidden?: number; // matched to the diffusion rows' parameter count (train.ts matchedMlpHidden)
  precision?: Precision;
  seed: number;
  steps: number;
  evalEvery?: number;
  augment: Augment;
  train: SudokuPairs;
  test: SudokuPairs;
  takeoffMetric: string; // the held-out metric the trainer logs whose first positive value is the takeoff
}

/** Trains the baseline `model` in `dir` and scores it on `o.test` (null when stopped). */
export function autoregressiveRun(
  model: string,
  dir: string,
  o: ArRunOptions,
  hooks: TrainHooks,
): { scores: ArScores; takeoff: number | null } | null {
  const { order } = AR_MODELS[model]!;
  const run = {
    size: o.size,
    order,
    seed: o.seed,
    steps: o.steps,
    evalEvery: o.evalEvery,
    augment: o.augment,
    mlpHidden: o.mlpHidden,
    precision: o.precision,
  };
  const key = (step: number) => ({ puzzles: hashPairs(o.test), decoding: 'greedy', step });
  // a run kept without its weights is read from its cached scores
  const kept = keptResult<ArScores>(dir, FINAL_EVAL, key(o.steps), o.takeoffMetric);
  if (kept) return { scores: kept.value, takeoff: kept.takeoff };
  if (!trainAutoregressive(dir, run, { train: o.train, held: o.test }, hooks)) return null;
  const state = runState(dir);
  const scores = cached(join(dir, FINAL_EVAL), key(state.step), (): ArScores => {
    hooks.log?.(`${dir}: decoding ${o.test.puzzles.length} held-out puzzles greedily`);
    const { net, precision } = loadAutoregressive(dir);
    const d = decodeGreedy(net, o.test.puzzles, order, DECODE_BATCH, precision);
    const s = scoreBoards(o.test.puzzles, o.test.solutions, d.boards);
    const batches = Math.ceil(o.test.puzzles.length / DECODE_BATCH);
    return {
      solveRate: s.solve_rate,
      cellAccuracy: s.cell_accuracy,
      passesPerBoard: d.passes / batches,
      brokenRules: d.boards.filter((b, n) => answerProblems(o.test.puzzles[n]!, b).length > 0)
        .length,
    };
  });
  return { scores, takeoff: state.takeoff };
}
