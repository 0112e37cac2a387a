// Solving puzzles group by group (`sjd eval sudoku --by-nodes`): each group of puzzles (a
// search-node bucket) solved on its own and timed, so that boards/s per group are measured rather
// than apportioned, and the groups' results merged back in the puzzles' order.
import type { Board } from '../../tasks/sudoku/puzzle/board.js';
import type { SolveResult } from '../../tasks/sudoku/retry.js';

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
