// A Sudoku board as the autoregressive baselines' sequence (causal-decoder.ts): position k
// predicts cell order[k], given the cell and digit before it. Clues are given, not predicted:
// their targets are left out of the loss (IGNORE), and decoding copies them.
import { type Tensor, tensor } from '../../../torch/index.js';
import { type Board, CELLS } from '../puzzle/board.js';

/** Targets equal to this leave the cross-entropy (the clues). */
export const IGNORE = -100;

/** The start token's digit (tokens are digits 0..8; the network's K). */
export const START_DIGIT = 9;

export interface SequenceBatch {
  order: Tensor; // [B, 81] int64: the cell position k predicts
  previous: Tensor; // [B, 81] int64: the digit (0..8) of cell order[k - 1]; START_DIGIT at k = 0
  target: Tensor; // [B, 81] int64: the digit (0..8) of cell order[k]; IGNORE at clues
}

/** The sequences of `solutions` of `puzzles`, each written in its own order (81 cells each). */
export function sequenceBatch(
  puzzles: readonly Board[],
  solutions: readonly Board[],
  orders: readonly number[][],
): SequenceBatch {
  const B = puzzles.length;
  const order = new Float64Array(B * CELLS);
  const previous = new Float64Array(B * CELLS);
  const target = new Float64Array(B * CELLS);
  for (let b = 0; b < B; b++) {
    const o = orders[b]!;
    if (o.length !== CELLS) throw new Error(`an order of ${o.length} cells, not ${CELLS}`);
    for (let k = 0; k < CELLS; k++) {
      const cell = o[k]!;
      order[b * CELLS + k] = cell;
      previous[b * CELLS + k] = k === 0 ? START_DIGIT : solutions[b]![o[k - 1]!]! - 1;
      target[b * CELLS + k] = puzzles[b]![cell] !== 0 ? IGNORE : solutions[b]![cell]! - 1;
    }
  }
  const int = (x: Float64Array) => tensor(x, [B, CELLS], 'float64').to('int64');
  return { order: int(order), previous: int(previous), target: int(target) };
}
