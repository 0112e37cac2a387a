// The rules of Sudoku as a sampling constraint (sampling/exclusion.ts): every unit (row, column,
// box) holds every digit once. Given the committed cells (clues and commits) the exact posterior
// gives probability 0 to a digit a committed peer holds (at most once), and, at a hidden single --
// the one open cell of a unit where a digit the unit lacks is still allowed -- to every other digit
// (at least once). With the rules (Sudoku's default; `--no-rules` leaves the paper's samplers
// reading the classifier alone) the sampler uses both, the network's prediction being left for what
// the rules alone do not decide. A unit with a digit that none of its cells can take (`stuck`)
// tells the searching sampler (sampling/remask-step.ts) that a board is broken before any cell has
// run out of digits.
// The rules are read on the host, as 9-bit digit masks a unit and a cell: a step of a solve reads
// them once or twice, and on a CPU the same logic as tensor ops (about thirty small kernels,
// incidence matmuls among them) cost several times the bit operations on a batch's 81 cells.

import type { Exclusion } from '../../sampling/index.js';
import { type Tensor, tensor } from '../../torch/index.js';
import { CELLS, UNITS } from './puzzle/board.js';

const DIGITS = 9;
const ALL = (1 << DIGITS) - 1; // every digit's bit
/** Each cell's three units (its row, column and box: indices into UNITS), [81 * 3]. */
const CELL_UNITS = (() => {
  const out = new Uint8Array(CELLS * 3);
  const seen = new Uint8Array(CELLS);
  UNITS.forEach((cells, u) => {
    for (const i of cells) out[i * 3 + seen[i]!++] = u;
  });
  return out;
})();

/** A batch's boards on the host: B, each cell's committed digit's bit (0 when open) [B * 81]. */
function heldBits(tokens: Tensor, committed: Tensor): { B: number; held: Uint16Array } {
  const tok = tokens.to('int32', 'cpu').dataView() as Int32Array; // [B * 81]
  const com = committed.to('bool', 'cpu').dataView() as Uint8Array; // [B * 81]
  const held = new Uint16Array(tok.length);
  for (let k = 0; k < tok.length; k++)
    if (com[k]) held[k] = 1 << Math.min(Math.max(tok[k]!, 0), DIGITS - 1);
  return { B: tok.length / CELLS, held };
}

/** Board b's units: the digits committed once or more (`once`) and twice or more (`twice`) [27]. */
function unitDigits(held: Uint16Array, b: number, once: Uint16Array, twice: Uint16Array): void {
  UNITS.forEach((cells, u) => {
    let [one, two] = [0, 0];
    for (const i of cells) {
      const h = held[b * CELLS + i]!;
      two |= one & h;
      one |= h;
    }
    [once[u], twice[u]] = [one, two];
  });
}

/**
 * tokens [B, 81] (digit - 1 where committed), committed [B, 81] -> ruled out [B, 81, 9] bool: the
 * digits a committed peer holds, and at a hidden single (the one open cell of a unit where a
 * digit the unit lacks is still allowed) every other digit.
 */
export const sudokuRules: Exclusion = (tokens, committed) => {
  const { B, held } = heldBits(tokens, committed);
  const out = new Uint8Array(B * CELLS * DIGITS); // [B, 81, 9]
  const [once, twice] = [new Uint16Array(27), new Uint16Array(27)];
  const [ruled, allowed] = [new Uint16Array(CELLS), new Uint16Array(CELLS)];
  const [one, many] = [new Uint16Array(27), new Uint16Array(27)];
  for (let b = 0; b < B; b++) {
    unitDigits(held, b, once, twice);
    one.fill(0);
    many.fill(0);
    for (let i = 0; i < CELLS; i++) {
      const h = held[b * CELLS + i]!;
      let r = 0;
      for (let k = 0; k < 3; k++) {
        const u = CELL_UNITS[i * 3 + k]!;
        // another cell of the unit holds the digit: any digit held, but the cell's own twice
        r |= (once[u]! & ~h) | (twice[u]! & h);
      }
      ruled[i] = r;
      const a = h ? 0 : ~r & ALL; // an open cell's digits left
      allowed[i] = a;
      for (let k = 0; k < 3; k++) {
        const u = CELL_UNITS[i * 3 + k]!;
        many[u]! |= one[u]! & a;
        one[u]! |= a;
      }
    }
    for (let i = 0; i < CELLS; i++) {
      let single = 0; // digits that a unit of the cell lacks and can place only here
      for (let k = 0; k < 3; k++) {
        const u = CELL_UNITS[i * 3 + k]!;
        single |= one[u]! & ~many[u]! & ~once[u]!;
      }
      const forced = single & allowed[i]!;
      const m = ruled[i]! | (forced ? ~forced & ALL : 0);
      for (let d = 0; d < DIGITS; d++) out[(b * CELLS + i) * DIGITS + d] = (m >> d) & 1;
    }
  }
  return tensor(out, [B, CELLS, DIGITS], 'bool').to('bool', tokens.device);
};

/**
 * left [B, 81, 9] (digits still open), tokens, committed [B, 81] -> [B, 1] bool: some unit has a
 * digit that no committed cell of it holds and no open cell of it may take (every unit holds
 * every digit once, so no completion exists; the dual of a cell with no digit left).
 */
sudokuRules.stuck = (left, tokens, committed) => {
  const { B, held } = heldBits(tokens, committed);
  const open = left.to('bool', 'cpu').dataView() as Uint8Array; // [B * 81 * 9]
  const out = new Uint8Array(B);
  for (let b = 0; b < B; b++)
    out[b] = UNITS.some((cells) => {
      let may = 0;
      for (const i of cells) {
        const k = b * CELLS + i;
        if (held[k]) may |= held[k]!;
        else for (let d = 0; d < DIGITS; d++) may |= open[k * DIGITS + d]! << d;
      }
      return may !== ALL;
    })
      ? 1
      : 0;
  return tensor(out, [B, 1], 'bool').to('bool', tokens.device);
};
