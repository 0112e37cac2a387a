// Where Sudoku puzzles come from: a CSV or Shah et al. .npy file given by the user (`--data`),
// or, with no file, puzzles generated here without guessing (seeded). The library knows no
// data folder of its own.
import { existsSync, statSync } from 'node:fs';
import { readSudokuCsv } from './puzzle/csv.js';
import { generatePuzzles } from './puzzle/generator.js';
import { readSudokuNpy } from './puzzle/npy.js';
import type { SudokuPairs } from './task.js';

/** Puzzles (and solutions, where the file has them) from a file, .csv or .npy; none: refused. */
export function readPuzzleFile(path: string, o: { limit?: number; requireSolutions?: boolean }) {
  if (!existsSync(path)) throw new Error(`${path}: no such file`);
  if (statSync(path).isDirectory())
    throw new Error(`${path} is a folder; give a puzzle file (.csv or .npy)`);
  const set = path.endsWith('.npy')
    ? readSudokuNpy(path, { limit: o.limit })
    : readSudokuCsv(path, o);
  // an empty set would score as 0 boards solved, not as the mistake it is
  if (set.puzzles.length === 0) throw new Error(`${path} holds no puzzles`);
  return set;
}

/** Puzzles with solutions from a file (.csv or .npy). */
export function loadPairs(path: string, limit?: number): SudokuPairs {
  const set = readPuzzleFile(path, { limit, requireSolutions: true });
  return { puzzles: set.puzzles, solutions: set.solutions as SudokuPairs['solutions'] };
}

/** n generated puzzles (seeded); `onPuzzle` after each. */
export function generatedPairs(
  n: number,
  seed: number,
  onPuzzle?: (done: number, n: number) => void,
): SudokuPairs {
  const g = generatePuzzles(n, { seed, onPuzzle });
  return { puzzles: g.map((p) => p.puzzle), solutions: g.map((p) => p.solution) };
}

/** Seconds between the progress lines of a long generation. */
const PROGRESS_S = 5;

/** Puzzles from which a generation says it is starting (fewer take a second or two). */
const ANNOUNCED = 1000;

/**
 * The file if given, else generated puzzles; a generation of many says so on `log` as it starts,
 * and any says how far it is every few seconds (20,000 puzzles take a minute or more on a busy
 * machine).
 */
export function pairsOrGenerated(
  path: string | undefined,
  limit: number | undefined,
  generate: { n: number; seed: number; what?: string },
  log?: (line: string) => void,
): { pairs: SudokuPairs; source: string } {
  if (path) return { pairs: loadPairs(path, limit), source: path };
  const { n, seed } = generate;
  const what = generate.what ?? 'puzzles';
  if (n >= ANNOUNCED)
    log?.(`generating ${n.toLocaleString('en-US')} ${what} here (seed ${seed}; none given)`);
  const t0 = performance.now();
  let shown = t0;
  const onPuzzle = (done: number) => {
    const now = performance.now();
    if (now - shown < PROGRESS_S * 1000 || done === n) return;
    shown = now;
    const s = (now - t0) / 1000;
    log?.(
      `generated ${done.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} ${what} in ${s.toFixed(0)} s (about ${((s * (n - done)) / done).toFixed(0)} s left)`,
    );
  };
  return {
    pairs: generatedPairs(n, seed, log ? onPuzzle : undefined),
    source: `generated (${n} puzzles, seed ${seed})`,
  };
}

/** The training puzzles: the file given, else 20,000 generated here (saying so on `log`). */
export const trainingPuzzles = (data: string | undefined, log?: (line: string) => void) =>
  pairsOrGenerated(data, undefined, { n: 20_000, seed: 1, what: 'training puzzles' }, log);
