// Where Sudoku puzzles come from: a CSV or Shah et al. .npy file given by the user (`--data`),
// or, with no file, puzzles generated here without guessing (seeded). The library knows no
// data folder of its own.
import { existsSync, statSync } from 'node:fs';
import { readSudokuCsv } from './csv.js';
import { generatePuzzles } from './generator.js';
import { readSudokuNpy } from './npy.js';
import type { SudokuPairs } from './task.js';

/** Puzzles (and solutions, where the file has them) from a file, .csv or .npy. */
export function readPuzzleFile(path: string, o: { limit?: number; requireSolutions?: boolean }) {
  if (!existsSync(path)) throw new Error(`${path}: no such file`);
  if (statSync(path).isDirectory())
    throw new Error(`${path} is a folder; give a puzzle file (.csv or .npy)`);
  return path.endsWith('.npy') ? readSudokuNpy(path, { limit: o.limit }) : readSudokuCsv(path, o);
}

/** Puzzles with solutions from a file (.csv or .npy). */
export function loadPairs(path: string, limit?: number): SudokuPairs {
  const set = readPuzzleFile(path, { limit, requireSolutions: true });
  return { puzzles: set.puzzles, solutions: set.solutions as SudokuPairs['solutions'] };
}

/** n generated puzzles (seeded). */
export function generatedPairs(n: number, seed: number): SudokuPairs {
  const g = generatePuzzles(n, { seed });
  return { puzzles: g.map((p) => p.puzzle), solutions: g.map((p) => p.solution) };
}

/** The file if given, else generated puzzles. */
export function pairsOrGenerated(
  path: string | undefined,
  limit: number | undefined,
  generate: { n: number; seed: number },
): { pairs: SudokuPairs; source: string } {
  if (path) return { pairs: loadPairs(path, limit), source: path };
  return {
    pairs: generatedPairs(generate.n, generate.seed),
    source: `generated (${generate.n} puzzles, seed ${generate.seed})`,
  };
}
