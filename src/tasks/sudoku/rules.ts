// The rules of Sudoku as a sampling constraint (sampling/exclusion.ts): every unit (row, column,
// box) holds every digit once. Given the committed cells (clues and commits) the exact posterior
// gives probability 0 to a digit a committed peer holds (at most once), and, at a hidden single --
// the one open cell of a unit where a digit the unit lacks is still allowed -- to every other digit
// (at least once). With the rules (Sudoku's default; `--no-rules` leaves the paper's samplers
// reading the classifier alone) the sampler uses both, the network's prediction being left for what
// the rules alone do not decide. A unit with a digit that none of its cells can take (`stuck`)
// tells the searching sampler (sampling/remask-step.ts) that a board is broken before any cell has
// run out of digits.
import type { Exclusion } from '../../sampling/index.js';
import { keep, type Tensor, tensor } from '../../torch/index.js';
import { CELLS, PEERS, UNITS } from './puzzle/board.js';

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

/**
 * tokens [B, 81] (digit - 1 where committed), committed [B, 81] -> ruled out [B, 81, 9] bool: the
 * digits a committed peer holds, and at a hidden single (the one open cell of a unit where a
 * digit the unit lacks is still allowed) every other digit.
 */
export const sudokuRules: Exclusion = (tokens, committed) => {
  const mine = committedDigits(tokens, committed); // [B, 81, 9]
  const ruled = peers().matmul(mine).gt(0); // [B, 81, 9] some peer holds the digit
  const open = committed.logicalNot().unsqueeze(-1); // [B, 81, 1]
  const allowed = ruled.logicalNot().logicalAnd(open); // [B, 81, 9] bool
  const lacking = units().matmul(mine).eq(0); // [B, 27, 9] the unit holds no such digit yet
  const single = units().matmul(allowed.to('float32')).eq(1).logicalAnd(lacking); // [B, 27, 9]
  const forced = units().transpose(0, 1).matmul(single.to('float32')).gt(0).logicalAnd(allowed); // [B, 81, 9]
  return ruled.logicalOr(forced.any(-1, true).logicalAnd(forced.logicalNot()));
};

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
