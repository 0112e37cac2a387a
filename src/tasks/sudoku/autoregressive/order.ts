// The orders in which the autoregressive baselines of tab:sudoku_schedule_ablations write a
// board (Shah et al. 2024). Both give the clues first, row-major, as a prefix, so that every blank
// is predicted with every clue in view (Shah et al.'s format: the puzzle, then the solution);
// then the blanks: left to right (row-major), or in the solver order, the order in which a logical
// solver fills the cells (puzzle/logic-solver.ts). The solver order is a property of the puzzle,
// not of its solution: training and decoding both run the solver on the puzzle. A puzzle the
// solver cannot finish (it stops without a guess) has its remaining cells last, in row-major order.
import { type Board, CELLS } from '../puzzle/board.js';
import { solveLogically } from '../puzzle/logic-solver.js';

export type OrderName = 'ltr' | 'solver';

const ROW_MAJOR = Array.from({ length: CELLS }, (_, i) => i);

/** The solver order of `puzzle`: clues, the solver's placements, then the cells it left. */
export function solverOrder(puzzle: Board): number[] {
  const clues = ROW_MAJOR.filter((i) => puzzle[i] !== 0);
  const placed = solveLogically(puzzle).placements;
  const seen = new Uint8Array(CELLS);
  for (const i of [...clues, ...placed]) seen[i] = 1;
  return [...clues, ...placed, ...ROW_MAJOR.filter((i) => seen[i] === 0)];
}

/** The clues row-major, then the blanks row-major. */
export function leftToRight(puzzle: Board): number[] {
  return [...ROW_MAJOR.filter((i) => puzzle[i] !== 0), ...ROW_MAJOR.filter((i) => puzzle[i] === 0)];
}

/** Each order by name: the 81 cells of `puzzle` in the order the model writes them. */
export const ORDERS: Record<OrderName, (puzzle: Board) => number[]> = {
  ltr: leftToRight,
  solver: solverOrder,
};

export const ORDER_NAMES = Object.keys(ORDERS) as OrderName[];
