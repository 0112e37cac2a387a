// Sudoku difficulty classes (app:sudoku, docs/design.md §5): the strategies a puzzle needs, from the
// qqwing columns of its file when it has them, else from the logical solver (solver.ts):
// `singles` (naked and hidden singles finish it), `beyond-singles` (a pair or intersection
// strategy is needed), `guessing` (logic alone cannot finish it). The scores of metrics.ts,
// split by class.
import { readFileSync } from 'node:fs';
import type { Board } from './board.js';
import { type SudokuScores, scoreBoards } from './metrics.js';
import {
  labelOfCounts,
  parseStrategyColumns,
  type QqwingLabel,
  type StrategyStats,
} from './qqwing-csv.js';
import { solveLogically } from './solver.js';

export const DIFFICULTY_CLASSES = ['singles', 'beyond-singles', 'guessing'] as const;
export type DifficultyClass = (typeof DIFFICULTY_CLASSES)[number];

const CLASS_OF_LABEL: Record<QqwingLabel, DifficultyClass> = {
  Simple: 'singles',
  Easy: 'singles',
  Intermediate: 'beyond-singles',
  Expert: 'guessing',
};

export const classOfLabel = (label: QqwingLabel): DifficultyClass => CLASS_OF_LABEL[label];

/**
 * A puzzle's qqwing statistics computed by the logical solver: the applications of each strategy
 * (up to where it got stuck, for a puzzle it cannot finish) and the label (Expert when stuck).
 * Bounded: every step of the solver places a digit or removes a candidate (at most 729 steps).
 */
export function strategyStats(puzzle: Board): StrategyStats {
  const { solved, counts } = solveLogically(puzzle);
  const givens = puzzle.reduce((n, v) => n + (v > 0 ? 1 : 0), 0);
  return { givens, counts, label: solved ? labelOfCounts(counts) : 'Expert' };
}

/** The class of each puzzle by the logical solver. */
export const classifyPuzzles = (puzzles: readonly Board[]): DifficultyClass[] =>
  puzzles.map((p) => classOfLabel(strategyStats(p).label));

/**
 * The classes of the first `puzzles.length` puzzles of file `path` (the puzzles read from it):
 * from its qqwing columns when a CSV has them, else computed by the logical solver.
 */
export function difficultyClasses(
  path: string,
  puzzles: readonly Board[],
): { classes: DifficultyClass[]; source: 'columns' | 'solver' } {
  const stats = path.endsWith('.npy')
    ? null
    : parseStrategyColumns(readFileSync(path, 'utf8'), path, puzzles.length);
  if (!stats) return { classes: classifyPuzzles(puzzles), source: 'solver' };
  if (stats.length !== puzzles.length)
    throw new Error(
      `${path}: ${stats.length} rows of qqwing columns for ${puzzles.length} puzzles`,
    );
  return { classes: stats.map((s) => classOfLabel(s.label)), source: 'columns' };
}

/** A class's scores; `nfe_mean` (classifier evaluations per board) when the NFE were given. */
export type ClassScores = Pick<SudokuScores, 'boards' | 'solve_rate' | 'cell_accuracy'> & {
  nfe_mean?: number;
};

/** Scores per class, in DIFFICULTY_CLASSES order; a class without puzzles is left out. */
export type DifficultyScores = Partial<Record<DifficultyClass, ClassScores>>;

/**
 * scoreBoards (metrics.ts) on the boards of each class: how many, the solve rate and the cell
 * accuracy over the blanks, and the mean NFE a board when `nfe` is given. All the arrays are
 * aligned (one entry per puzzle).
 */
export function scoreByDifficulty(
  puzzles: readonly Board[],
  solutions: readonly Board[],
  boards: readonly Board[],
  classes: readonly DifficultyClass[],
  nfe?: readonly number[],
): DifficultyScores {
  const n = puzzles.length;
  if (
    solutions.length !== n ||
    boards.length !== n ||
    classes.length !== n ||
    (nfe && nfe.length !== n)
  )
    throw new Error(
      `scoreByDifficulty: ${n} puzzles, ${solutions.length} solutions, ${boards.length} boards, ${classes.length} classes${nfe ? `, ${nfe.length} NFE counts` : ''}`,
    );
  const out: DifficultyScores = {};
  for (const c of DIFFICULTY_CLASSES) {
    const idx = classes.flatMap((k, i) => (k === c ? [i] : []));
    if (idx.length === 0) continue;
    const pick = (xs: readonly Board[]) => idx.map((i) => xs[i]!);
    const s = scoreBoards(pick(puzzles), pick(solutions), pick(boards));
    out[c] = { boards: s.boards, solve_rate: s.solve_rate, cell_accuracy: s.cell_accuracy };
    if (nfe) out[c]!.nfe_mean = idx.reduce((a, i) => a + nfe[i]!, 0) / idx.length;
  }
  return out;
}
