// Exact Sudoku search by backtracking: digits used per row/column/box as 9-bit masks, the next
// cell chosen by minimum remaining values (MRV). Counts solutions up to a limit (uniqueness
// checks, unsolvable-puzzle detection) and finds one (completing random grids); a bounded count
// stops after a number of search nodes and says so (a hard puzzle never hangs a command).
// Digits d are bit d-1 of a mask.
import { type Board, boxOf, CELLS, colOf, hasContradiction, rowOf } from './board.js';

const ROW = Uint8Array.from({ length: CELLS }, (_, i) => rowOf(i));
const COL = Uint8Array.from({ length: CELLS }, (_, i) => colOf(i));
const BOX = Uint8Array.from({ length: CELLS }, (_, i) => boxOf(i));

/** Number of set bits of a 9-bit mask. */
export const POPCOUNT = Uint8Array.from({ length: 512 }, (_, m) => {
  let c = 0;
  for (let x = m; x; x &= x - 1) c++;
  return c;
});

/** The digit (1..9) of a one-bit mask, by the bit's value (only entries 1, 2, 4, ... 256 used). */
export const DIGIT_OF_BIT = Uint8Array.from({ length: 257 }, (_, m) =>
  m && (m & (m - 1)) === 0 ? Math.log2(m) + 1 : 0,
);

interface SearchResult {
  count: number; // solutions found, at most the limit
  complete: boolean; // false when the node bound stopped the search first
}

/** A search's state: the grid, the digits used per unit as masks, the empty cells left. */
class Search {
  readonly g: Board;
  readonly rows = new Uint16Array(9);
  readonly cols = new Uint16Array(9);
  readonly boxes = new Uint16Array(9);
  readonly empty = new Uint8Array(CELLS);
  n = 0; // empty cells
  count = 0;
  nodes = 0;
  complete = true;

  constructor(
    puzzle: Board,
    readonly limit: number,
    readonly found: Uint8Array | null,
    readonly maxNodes: number,
  ) {
    this.g = puzzle.slice();
    for (let i = 0; i < CELLS; i++) {
      const v = this.g[i]!;
      if (v === 0) this.empty[this.n++] = i;
      else this.#toggle(i, 1 << (v - 1));
    }
  }

  /** Sets (or clears) digit bit `bit` in cell i's row, column and box. */
  #toggle(i: number, bit: number): void {
    this.rows[ROW[i]!]! ^= bit;
    this.cols[COL[i]!]! ^= bit;
    this.boxes[BOX[i]!]! ^= bit;
  }

  /**
   * Of empty[k..n-1], the position whose cell has the fewest candidates (the first of them),
   * moved to k; its candidates' mask (0 for a cell without one).
   */
  #mostConstrained(k: number): number {
    const { empty, rows, cols, boxes } = this;
    let best = k;
    let bestMask = 0;
    let bestCount = 10;
    for (let j = k; j < this.n; j++) {
      const i = empty[j]!;
      const m = ~(rows[ROW[i]!]! | cols[COL[i]!]! | boxes[BOX[i]!]!) & 0x1ff;
      const c = POPCOUNT[m]!;
      if (c < bestCount) {
        best = j;
        bestMask = m;
        bestCount = c;
        if (c <= 1) break;
      }
    }
    if (bestCount === 0) return 0; // a dead end: the order is left as it is
    const i = empty[best]!;
    empty[best] = empty[k]!;
    empty[k] = i;
    return bestMask;
  }

  /** Fills empty[k..n-1]; returns true when the limit or the node bound is reached (stop all). */
  fill(k: number): boolean {
    if (++this.nodes > this.maxNodes) {
      this.complete = false;
      return true;
    }
    if (k === this.n) {
      if (this.count === 0 && this.found) this.found.set(this.g);
      return ++this.count >= this.limit;
    }
    const mask = this.#mostConstrained(k);
    if (mask === 0) return false;
    const i = this.empty[k]!;
    for (let m = mask; m; m &= m - 1) {
      const bit = m & -m;
      this.#toggle(i, bit);
      this.g[i] = DIGIT_OF_BIT[bit]!;
      const stop = this.fill(k + 1);
      this.#toggle(i, bit);
      if (stop) return true;
    }
    this.g[i] = 0;
    return false;
  }
}

/**
 * Runs the search, visiting at most `maxNodes` cells' placements; `found` (when given) receives
 * the first solution.
 */
function search(
  puzzle: Board,
  limit: number,
  found: Uint8Array | null,
  maxNodes = Number.POSITIVE_INFINITY,
): SearchResult {
  if (hasContradiction(puzzle)) return { count: 0, complete: true };
  const s = new Search(puzzle, limit, found, maxNodes);
  if (limit > 0) s.fill(0);
  return { count: s.count, complete: s.complete || s.count >= limit };
}

/** Number of solutions of `puzzle`, counting no further than `limit` (2: "is it unique?"). */
export const countSolutions = (puzzle: Board, limit = 2): number =>
  search(puzzle, limit, null).count;

/**
 * Solutions of `puzzle` counted no further than `limit`, visiting at most `maxNodes` search
 * nodes; `complete` is false when the bound stopped the search before the count was settled.
 */
export const countSolutionsBounded = (puzzle: Board, limit: number, maxNodes: number) =>
  search(puzzle, limit, null, maxNodes);

/** The first solution found by backtracking, or null when the puzzle has none. */
export function solveByBacktracking(puzzle: Board): Board | null {
  const out = new Uint8Array(CELLS);
  return search(puzzle, 1, out).count > 0 ? out : null;
}
