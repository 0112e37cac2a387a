// The symmetries of Sudoku used to augment training boards (app:sudoku): a solved grid stays
// solved, and a puzzle keeps its unique solution, under relabelling the digits (9!) and under the
// geometric group of cell permutations — band permutations, stack permutations, row permutations
// within each band, column permutations within each stack and transposition (2 * 6^8 = 3,359,232
// elements). Each board gets its own uniform draw from the run's generator (resume draws the same),
// applied to solution and clue mask alike by gather, with no loops over boards or cells. The same
// draws, as plain arrays, move a single puzzle to a symmetric copy and an answer back (a solve's
// retry, retry.ts).
import { type Tensor, type TorchGenerator, tidy, where } from '../../torch/index.js';
import { type Board, CELLS } from './puzzle/board.js';

/** How training boards are augmented: not at all, digit relabelling, or all of the above. */
export type Augment = 'none' | 'digits' | 'full';

export const AUGMENTS: readonly Augment[] = ['none', 'digits', 'full'];

/** Uniform random permutations of 0..k-1 along the last axis of `shape`: int64 (argsort). */
function permutations(shape: number[], gen: TorchGenerator): Tensor {
  return gen.rand(shape).sort(-1)[1];
}

/** [B, 9] int64: one uniform relabelling per board, digit d (0..8) becoming [b, d]. */
export function drawDigitPermutations(B: number, gen: TorchGenerator): Tensor {
  return permutations([B, 9], gen);
}

/** x0 [B, 81] digits 0..8 -> the digits relabelled by one random permutation per board. */
export function relabelDigits(x0: Tensor, gen: TorchGenerator): Tensor {
  return drawDigitPermutations(x0.size(0), gen).gather(1, x0); // [B, 81]
}

/** [B, 9]: the old row (or column) of each new one: bands (stacks) permuted, then lines within. */
function lines(B: number, gen: TorchGenerator): Tensor {
  const blocks = permutations([B, 3], gen); // [B, 3] old band of each new band
  const within = permutations([B, 3, 3], gen); // [B, 3, 3] old line within it
  return blocks.unsqueeze(-1).mul(3).add(within).view([B, 9]);
}

/**
 * B uniform draws from the geometric group: src [B, 81] int64, cell i of the new board is cell
 * src[b, i] of the old one (apply with `board.gather(1, src)`). Draws rows, columns, then the
 * transposition (probability 1/2), each from `gen`.
 */
export function drawCellPermutations(B: number, gen: TorchGenerator): Tensor {
  return tidy(() => {
    const rows = lines(B, gen); // [B, 9]
    const cols = lines(B, gen); // [B, 9]
    const flip = gen.rand([B, 1]).lt(0.5); // [B, 1] transposed boards
    const direct = rows.unsqueeze(2).mul(9).add(cols.unsqueeze(1)).view([B, 81]); // (r, c) <- (rows[r], cols[c])
    const transposed = rows.unsqueeze(1).mul(9).add(cols.unsqueeze(2)).view([B, 81]); // (r, c) <- (rows[c], cols[r])
    return where(flip, transposed, direct); // [B, 81]
  });
}

/**
 * A batch of solutions x0 [B, 81] (digits 0..8) and clue masks [B, 81] bool, augmented:
 * 'digits' relabels the digits, 'full' also permutes the cells (the same way for both).
 */
export function augmentBoards(
  x0: Tensor,
  clues: Tensor,
  augment: Augment,
  gen: TorchGenerator,
): { x0: Tensor; clues: Tensor } {
  if (augment === 'none') return { x0, clues };
  const relabelled = relabelDigits(x0, gen); // [B, 81]
  if (augment === 'digits') return { x0: relabelled, clues };
  const src = drawCellPermutations(x0.size(0), gen); // [B, 81]
  return { x0: relabelled.gather(1, src), clues: clues.gather(1, src) };
}

/**
 * One symmetry of a single board: cell i of the image is cell src[i] of the board, and digit d
 * (1..9) becomes digits[d - 1] + 1; blanks stay blank.
 */
export interface BoardSymmetry {
  src: number[]; // [81]
  digits: number[]; // [9]
}

/** n uniform draws from the whole group (cells, then digits, from `gen`) as plain arrays. */
export function drawBoardSymmetries(n: number, gen: TorchGenerator): BoardSymmetry[] {
  if (n === 0) return [];
  return tidy(() => {
    const src = drawCellPermutations(n, gen).toArray(); // [n * 81]
    const digits = drawDigitPermutations(n, gen).toArray(); // [n * 9]
    return Array.from({ length: n }, (_, b) => ({
      src: src.slice(b * CELLS, (b + 1) * CELLS),
      digits: digits.slice(b * 9, (b + 1) * 9),
    }));
  });
}

/** The image of a board (puzzle or grid; 0 = blank) under `s`. */
export function applySymmetry(board: Board, s: BoardSymmetry): Board {
  return Uint8Array.from(s.src, (i) => (board[i] === 0 ? 0 : s.digits[board[i]! - 1]! + 1));
}

/** [9]: the token (digit - 1) that `s` maps to each token, i.e. s.digits inverted. */
export function inverseDigits(s: BoardSymmetry): number[] {
  const back = new Array<number>(9);
  s.digits.forEach((to, from) => {
    back[to] = from;
  });
  return back;
}

/** The board whose image under `s` is `image` (applySymmetry's inverse). */
export function invertSymmetry(image: Board, s: BoardSymmetry): Board {
  const back = inverseDigits(s);
  const out = new Uint8Array(CELLS);
  s.src.forEach((i, k) => {
    out[i] = image[k] === 0 ? 0 : back[image[k]! - 1]! + 1;
  });
  return out;
}
