// Where Sudoku puzzles come from: a CSV or Shah et al. .npy file, or, with no file (a fresh
// machine), puzzles generated here without guessing. ../shared/data/sudoku is used when present
// beside the package.
import { existsSync } from 'node:fs';
import { readSudokuCsv } from './csv.js';
import { generatePuzzles } from './generator.js';
import { readSudokuNpy } from './npy.js';
import type { SudokuPairs } from './task.js';

const sharedDir = new URL('../../../../../shared/data/sudoku/', import.meta.url).pathname;
export const SHARED_TRAIN = `${sharedDir}qqwing_noguess_train.csv`;
export const SHARED_TEST = `${sharedDir}qqwing_noguess_test.csv`;

/** Puzzles with solutions from a file (.csv or .npy). */
export function loadPairs(path: string, limit?: number): SudokuPairs {
  const set = path.endsWith('.npy')
    ? readSudokuNpy(path, { limit })
    : readSudokuCsv(path, { limit, requireSolutions: true });
  return { puzzles: set.puzzles, solutions: set.solutions as SudokuPairs['solutions'] };
}

/** n generated puzzles (seeded). */
export function generatedPairs(n: number, seed: number): SudokuPairs {
  const g = generatePuzzles(n, { seed });
  return { puzzles: g.map((p) => p.puzzle), solutions: g.map((p) => p.solution) };
}

/** The file if given, else the shared set if present, else generated puzzles. */
export function defaultPairs(
  path: string | undefined,
  shared: string,
  limit: number | undefined,
  generate: { n: number; seed: number },
): { pairs: SudokuPairs; source: string } {
  if (path) return { pairs: loadPairs(path, limit), source: path };
  if (existsSync(shared)) return { pairs: loadPairs(shared, limit), source: shared };
  return {
    pairs: generatedPairs(generate.n, generate.seed),
    source: `generated (${generate.n} puzzles, seed ${generate.seed})`,
  };
}
