// The rules of Sudoku as a sampling constraint (issue #13, sampling/exclusion.ts): a digit a
// committed peer (clue or committed cell) holds is ruled out at a cell. The exact posterior
// gives it probability 0; `--rules` makes the sampler use that, the network's prediction
// being left for what the rules alone do not decide. Off by default: the paper's samplers
// read the classifier alone.
import type { Exclusion } from '../../sampling/index.js';
import { keep, type Tensor, tensor } from '../../torch/index.js';
import { CELLS, PEERS } from './board.js';

const DIGITS = 9;

let peerMatrix: Tensor | null = null;

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

/** tokens [B, 81] (digit - 1 where committed), committed [B, 81] -> ruled out [B, 81, 9] bool */
export const sudokuRules: Exclusion = (tokens, committed) => {
  const held = tokens
    .clamp(0, DIGITS - 1)
    .oneHot(DIGITS)
    .to('float32'); // [B, 81, 9]
  const mine = held.mul(committed.unsqueeze(-1).to('float32')); // [B, 81, 9] committed digits
  return peers().matmul(mine).gt(0); // [B, 81, 9] some peer holds the digit
};
