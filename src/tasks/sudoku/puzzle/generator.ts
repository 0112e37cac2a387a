// Seeded Sudoku puzzle generation without guessing, like qqwing's no-guess sets: a random full
// grid (the three diagonal boxes, which never constrain each other, as random permutations,
// completed by backtracking), then every cell in a random order is blanked if the puzzle stays
// solvable by the allowed logical strategies. Logical solvability implies a unique solution:
// every deduction holds in every solution, so all solutions equal the deduced grid. One pass: a
// cell that cannot be blanked is not retried, as blanking others later only removes
// information; the pass stops early at minGivens clues. With `guessing`, a cell is blanked
// while the solution stays unique (backtracking) instead: minimal puzzles, some of which the
// logical strategies cannot finish (they need guessing, grade 'expert', as in qqwing).
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { countSolutions, solveByBacktracking } from './backtrack.js';
import { type Board, CELLS } from './board.js';
import { type Grade, gradeOf, STRATEGIES, type Strategy, solveLogically } from './logic-solver.js';

export interface GenerateOptions {
  seed: number;
  allowed?: readonly Strategy[]; // strategies the solver may use (all by default)
  minGivens?: number; // stop blanking at this many clues (default 17: no limit in practice)
  guessing?: boolean; // blank while the solution is unique, not while logic solves (default false)
  onPuzzle?: (done: number, n: number) => void; // after each puzzle (a long generation's progress)
}

export interface GeneratedPuzzle {
  puzzle: Board;
  solution: Board;
  givens: number;
  grade: Grade | 'expert'; // 'expert': the allowed strategies cannot finish it (needs guessing)
  counts: Record<Strategy, number>; // the logical solve's applications per strategy (until stuck)
}

/** A uniformly shuffled copy of `items` (Fisher-Yates). */
function shuffled<T>(rng: RandomGenerator, items: readonly T[]): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/** A random complete grid. */
function randomGrid(rng: RandomGenerator): Board {
  const seed = new Uint8Array(CELLS);
  for (const b of [0, 4, 8]) {
    const digits = shuffled(rng, DIGITS);
    const [r0, c0] = [3 * ((b / 3) | 0), 3 * (b % 3)];
    for (let k = 0; k < 9; k++) seed[9 * (r0 + ((k / 3) | 0)) + c0 + (k % 3)] = digits[k]!;
  }
  return solveByBacktracking(seed)!; // independent boxes always complete
}

function generateOne(
  rng: RandomGenerator,
  allowed: readonly Strategy[],
  minGivens: number,
  guessing: boolean,
): GeneratedPuzzle {
  const solution = randomGrid(rng);
  const puzzle = solution.slice();
  const keeps = guessing
    ? (p: Board) => countSolutions(p, 2) === 1
    : (p: Board) => solveLogically(p, allowed).solved;
  let givens = CELLS;
  for (const i of shuffled(rng, [...Array(CELLS).keys()])) {
    if (givens <= minGivens) break;
    puzzle[i] = 0;
    if (keeps(puzzle)) givens--;
    else puzzle[i] = solution[i]!;
  }
  const { solved, counts, hardest } = solveLogically(puzzle, allowed);
  return { puzzle, solution, givens, grade: solved ? gradeOf(hardest) : 'expert', counts };
}

/**
 * `n` puzzles, deterministic for a seed; each has a unique solution and, without `guessing`, is
 * logically solvable.
 */
export function generatePuzzles(n: number, opts: GenerateOptions): GeneratedPuzzle[] {
  const rng = xoroshiro128plus(opts.seed);
  const allowed = opts.allowed ?? STRATEGIES;
  const guessing = opts.guessing ?? false;
  return Array.from({ length: n }, (_, k) => {
    const p = generateOne(rng, allowed, opts.minGivens ?? 17, guessing);
    opts.onPuzzle?.(k + 1, n);
    return p;
  });
}
