// The rules of Sudoku as a sampling constraint (issue #13, sampling/exclusion.ts): a digit a
// committed peer (clue or committed cell) holds is ruled out at a cell. The exact posterior
// gives it probability 0; with the rules (Sudoku's default; `--no-rules` leaves the paper's
// samplers reading the classifier alone) the sampler uses that, the network's prediction being
// left for what the rules alone do not decide. Their dual, a unit with a digit that none of its
// cells can take (`stuck`), tells the searching sampler (sampling/remask-step.ts) that a board is
// broken before any cell has run out of digits (issue #32).
import type { Exclusion } from '../../sampling/index.js';
import { keep, type Tensor, tensor } from '../../torch/index.js';
import { CELLS, PEERS, UNITS } from './board.js';

const DIGITS = 9;

let peerMatrix: Tensor | null = null;
let unitMatrix: Tensor | null = null;

/** A [81, 81] float32: 1 where cells i and j are peers (share a row, column or box). */
function peers(): Tensor {
  if (!peerMatrix) {
    const a = new Float32Array(CELLS * CELLS);
    PEERS.forEach((ps, i) => {
      for (const j of ps) a[i * CELLS + j] = 1;
    });
    peerMatrix = keep(tensor(a, [CELLS, CELLS], 'float32')); // cached across scopes
  }
  return peerMatrix;
}

/** tokens, committed [B, 81] -> [B, 81, 9] float32: 1 at each committed cell's digit. */
function committedDigits(tokens: Tensor, committed: Tensor): Tensor {
  const held = tokens
    .clamp(0, DIGITS - 1)
    .oneHot(DIGITS)
    .to('float32'); // [B, 81, 9]
  return held.mul(committed.unsqueeze(-1).to('float32'));
}

/** tokens [B, 81] (digit - 1 where committed), committed [B, 81] -> ruled out [B, 81, 9] bool */
export const sudokuRules: Exclusion = (tokens, committed) =>
  peers().matmul(committedDigits(tokens, committed)).gt(0); // [B, 81, 9] some peer holds the digit

/** A [27, 81] float32: 1 where cell j lies in unit u (rows, columns, boxes). */
function units(): Tensor {
  if (!unitMatrix) {
    const a = new Float32Array(UNITS.length * CELLS);
    UNITS.forEach((cells, u) => {
      for (const j of cells) a[u * CELLS + j] = 1;
    });
    unitMatrix = keep(tensor(a, [UNITS.length, CELLS], 'float32')); // cached across scopes
  }
  return unitMatrix;
}

/**
 * left [B, 81, 9] (digits still open), tokens, committed [B, 81] -> [B, 1] bool: some unit has a
 * digit that no committed cell of it holds and no open cell of it may take (every unit holds
 * every digit once, so no completion exists; the dual of a cell with no digit left).
 */
sudokuRules.stuck = (left, tokens, committed) => {
  const held = committedDigits(tokens, committed).gt(0); // [B, 81, 9]
  const may = left.logicalAnd(committed.logicalNot().unsqueeze(-1)).logicalOr(held).to('float32'); // [B, 81, 9]
  return units().matmul(may).eq(0).any(-1).any(-1, true); // [B, 27, 9] -> [B, 1]
};
