// Sudoku sets in the qqwing layout (qqwing-csv.ts) with the statistics of our logical solver:
// generated here (generator.ts, seeded; with `guessing`, minimal unique puzzles, some of which
// logic alone cannot finish), or converted from a puzzle file (a CSV with or without solutions,
// a Shah et al. .npy file). Every row has exactly one solution.

import { readPuzzleFile } from '../data.js';
import { solveByBacktracking } from './backtrack.js';
import { generateByNodes, inNodeRange, type NodeRange, nodeRange } from './by-nodes.js';
import { solutionCount } from './check.js';
import { strategyStats } from './difficulty.js';
import { generatePuzzles } from './generator.js';
import { labelOfCounts, type StrategyRow } from './qqwing-csv.js';
import { countSearchNodes } from './search-nodes.js';

export interface StrategySetOptions {
  seed: number;
  guessing?: boolean; // also puzzles that need guessing (default false: all logically solvable)
  /** minimal puzzles whose search-node count and clues lie in this range (by-nodes.ts) */
  range?: Partial<NodeRange>;
  onPuzzle?: (done: number, n: number) => void; // after each puzzle (a long generation's progress)
}

/**
 * `n` generated puzzles with their statistics, deterministic for a seed: logically solvable
 * ones (with `guessing`, minimal ones), or minimal ones in a search-node range.
 */
export function generateStrategySet(n: number, opts: StrategySetOptions): StrategyRow[] {
  if (opts.range)
    return generateByNodes(n, { seed: opts.seed, ...opts.range, onPuzzle: opts.onPuzzle }).map(
      (g) => ({
        ...strategyStats(g.puzzle),
        ...g,
      }),
    );
  return generatePuzzles(n, {
    seed: opts.seed,
    guessing: opts.guessing,
    onPuzzle: opts.onPuzzle,
  }).map((g) => ({
    puzzle: g.puzzle,
    solution: g.solution,
    givens: g.givens,
    counts: g.counts,
    label: g.grade === 'expert' ? 'Expert' : labelOfCounts(g.counts),
    nodes: countSearchNodes(g.puzzle).nodes,
  }));
}

/**
 * The first `limit` puzzles of a .csv or .npy file with their statistics; a missing solution is
 * found by backtracking. A puzzle without exactly one solution is refused, naming its row.
 */
export function convertPuzzleFile(path: string, limit?: number): StrategyRow[] {
  const set = readPuzzleFile(path, { limit });
  return set.puzzles.map((puzzle, n) => {
    const count = solutionCount(puzzle);
    if (count !== 'one')
      throw new Error(
        `${path} puzzle ${n + 1}: ${count === 'unknown' ? 'the number of solutions is unknown (search bound reached)' : `the puzzle has ${count === 'none' ? 'no solution' : 'several solutions'}`}; a set holds puzzles with one`,
      );
    // one solution, found within the search bound: backtracking to it stays within that bound
    const solution = set.solutions[n] ?? solveByBacktracking(puzzle)!;
    return { puzzle, solution, ...strategyStats(puzzle), nodes: countSearchNodes(puzzle).nodes };
  });
}

/** The rows whose search-node count and clues lie in `range`. */
export function rowsInRange(
  rows: readonly StrategyRow[],
  range: Partial<NodeRange>,
): StrategyRow[] {
  const r = nodeRange(range);
  return rows.filter((row) => inNodeRange(r, row.nodes, row.givens));
}
