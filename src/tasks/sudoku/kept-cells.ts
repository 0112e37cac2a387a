// Remasking retries: a board that breaks the rules is not always wrong everywhere. Its retry may
// start from the cells its answer got consistent: the puzzle plus every answered cell outside the
// units that repeat a digit, each kept cell clamped as a clue, the cells of the broken units
// returned to the sampler (remasked: active again, y from the prior, the board's time from its
// remaining blanks). Widened, the peers of the remasked cells are remasked too. The verifier stays
// rule-based: which cells are kept is read from the puzzle and the answer only, never from a
// solution. Kept cells never clash with each other or with the clues (every unit they lie in is
// free of repeats), but one of them may still be wrong; the retry then breaks again and the next
// one widens, then restarts (retry.ts).
import { type Board, CELLS, PEERS, UNITS, unitRepeats } from './puzzle/board.js';

/**
 * The puzzle of a remasking retry: `puzzle` plus the cells of `answer` that lie in no unit
 * repeating a digit (widen: and share no unit with such a cell). An answer without repeats gives
 * the answer itself.
 */
export function remaskedPuzzle(puzzle: Board, answer: Board, widen: boolean): Board {
  const remask = new Uint8Array(CELLS);
  for (let u = 0; u < UNITS.length; u++)
    if (unitRepeats(answer, u).length > 0) for (const i of UNITS[u]!) remask[i] = 1;
  if (widen) {
    const core = remask.slice();
    for (let i = 0; i < CELLS; i++) if (core[i]) for (const p of PEERS[i]!) remask[p] = 1;
  }
  const out = puzzle.slice();
  for (let i = 0; i < CELLS; i++)
    if (puzzle[i] === 0 && !remask[i] && answer[i]! >= 1 && answer[i]! <= 9) out[i] = answer[i]!;
  return out;
}

/** How a board's next retry starts: from the puzzle, or remasked (and widened) from its answer. */
export type RetryStart = 'restart' | 'remask' | 'widen';

/** The start after a failed retry that started as `s`: remask, then widen, then restart. */
export const nextStart = (s: RetryStart): RetryStart =>
  s === 'remask' ? 'widen' : s === 'widen' ? 'restart' : 'remask';
