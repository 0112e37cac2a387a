// Sudoku difficulty classes (app:sudoku, docs/design.md §5): the strategies a puzzle needs (a
// file's qqwing columns give them too: difficulty-file.ts), from the logical solver (logic-solver.ts):
// `singles` (naked and hidden singles finish it), `beyond-singles` (a pair or intersection
// strategy is needed), `guessing` (logic alone cannot finish it). The scores of metrics.ts,
// split by class, or by search-node bucket (search-nodes.ts), with the first-attempt
// rate and the NFE per board of each group.
import { maxOf } from '../../../util/fold.js';
import { type SudokuScores, scoreBoards } from '../metrics.js';
import type { Board } from './board.js';
import { solveLogically } from './logic-solver.js';
import { labelOfCounts, type QqwingLabel, type StrategyStats } from './qqwing-label.js';
import { NODE_BUCKETS, nodeBucket } from './search-nodes.js';

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
 * A group's scores: how many boards, the solve rate and cell accuracy over the blanks; with the
 * NFE per board, their mean and maximum; with the attempts per board, the fraction solved by the
 * first attempt.
 */
export type GroupScores = Pick<SudokuScores, 'boards' | 'solve_rate' | 'cell_accuracy'> & {
  nfe_mean?: number;
  nfe_max?: number;
  first_attempt_rate?: number;
  boards_per_s?: number; // when the group was solved on its own (solve-grouped.ts)
};

/** A class's scores (GroupScores). */
export type ClassScores = GroupScores;

/** Scores per class, in DIFFICULTY_CLASSES order; a class without puzzles is left out. */
export type DifficultyScores = Partial<Record<DifficultyClass, ClassScores>>;

/** The per-board arrays a split reads, all aligned with the puzzles. */
export interface SolvedBoards {
  puzzles: readonly Board[];
  solutions: readonly Board[];
  boards: readonly Board[];
  nfe?: readonly number[]; // classifier evaluations per board
  attempts?: readonly number[]; // attempts per board (retry.ts)
}

/** scoreBoards on the boards of each group, in `order`; a group without boards is left out. */
function scoreGroups<G extends string>(
  caller: string,
  noun: string,
  order: readonly G[],
  groups: readonly G[],
  b: SolvedBoards,
): Partial<Record<G, GroupScores>> {
  const n = b.puzzles.length;
  const lengths = [b.solutions, b.boards, groups, b.nfe ?? b.boards, b.attempts ?? b.boards];
  if (lengths.some((xs) => xs.length !== n))
    throw new Error(
      `${caller}: ${n} puzzles, ${b.solutions.length} solutions, ${b.boards.length} boards, ${groups.length} ${noun}${b.nfe ? `, ${b.nfe.length} NFE counts` : ''}${b.attempts ? `, ${b.attempts.length} attempt counts` : ''}`,
    );
  const out: Partial<Record<G, GroupScores>> = {};
  for (const g of order) {
    const idx = groups.flatMap((k, i) => (k === g ? [i] : []));
    if (idx.length === 0) continue;
    const pick = (xs: readonly Board[]) => idx.map((i) => xs[i]!);
    const s = scoreBoards(pick(b.puzzles), pick(b.solutions), pick(b.boards));
    const scores: GroupScores = {
      boards: s.boards,
      solve_rate: s.solve_rate,
      cell_accuracy: s.cell_accuracy,
    };
    if (b.nfe) {
      scores.nfe_mean = idx.reduce((a, i) => a + b.nfe![i]!, 0) / idx.length;
      scores.nfe_max = maxOf(idx.map((i) => b.nfe![i]!));
    }
    if (b.attempts) {
      const first = idx.filter(
        (i) =>
          b.attempts![i] === 1 &&
          scoreBoards([b.puzzles[i]!], [b.solutions[i]!], [b.boards[i]!]).solve_rate === 1,
      );
      scores.first_attempt_rate = first.length / idx.length;
    }
    out[g] = scores;
  }
  return out;
}

/**
 * scoreBoards (metrics.ts) on the boards of each class: how many, the solve rate and the cell
 * accuracy over the blanks, and the mean and maximum NFE a board when `nfe` is given. All the
 * arrays are aligned (one entry per puzzle).
 */
export const scoreByDifficulty = (
  puzzles: readonly Board[],
  solutions: readonly Board[],
  boards: readonly Board[],
  classes: readonly DifficultyClass[],
  nfe?: readonly number[],
): DifficultyScores =>
  scoreGroups('scoreByDifficulty', 'classes', DIFFICULTY_CLASSES, classes, {
    puzzles,
    solutions,
    boards,
    nfe,
  });

/** Scores per search-node bucket (search-nodes.ts: 0, 1-4, 5-19, 20-49, 50+), in that order. */
export type NodeScores = Partial<Record<string, GroupScores>>;

/** scoreGroups by the search-node bucket of each puzzle (`nodes`: its count). */
export const scoreByNodes = (b: SolvedBoards, nodes: readonly number[]): NodeScores =>
  scoreGroups(
    'scoreByNodes',
    'node counts',
    NODE_BUCKETS.map(([label]) => label),
    nodes.map(nodeBucket),
    b,
  );
