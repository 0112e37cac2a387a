// The difficulty classes of a puzzle file's puzzles (difficulty.ts): from its qqwing columns when
// a CSV has them (qqwing-csv.ts), else computed by the logical solver.
import { readFileSync } from 'node:fs';
import type { Board } from './board.js';
import { classifyPuzzles, classOfLabel, type DifficultyClass } from './difficulty.js';
import { parseStrategyColumns } from './qqwing-csv.js';

/**
 * The classes of the first `puzzles.length` puzzles of file `path` (the puzzles read from it):
 * from its qqwing columns when a CSV has them, else computed by the logical solver.
 */
export function difficultyClasses(
  path: string,
  puzzles: readonly Board[],
  only?: readonly number[], // the classes of these puzzles alone (a solve stopped part-way)
): { classes: DifficultyClass[]; source: 'columns' | 'solver' } {
  const pick = <T>(xs: readonly T[]): T[] => (only ? only.map((i) => xs[i]!) : [...xs]);
  const stats = path.endsWith('.npy')
    ? null
    : parseStrategyColumns(readFileSync(path, 'utf8'), path, puzzles.length);
  if (!stats) return { classes: classifyPuzzles(pick(puzzles)), source: 'solver' };
  if (stats.length !== puzzles.length)
    throw new Error(
      `${path}: ${stats.length} rows of qqwing columns for ${puzzles.length} puzzles`,
    );
  return { classes: pick(stats).map((s) => classOfLabel(s.label)), source: 'columns' };
}
