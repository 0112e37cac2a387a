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
  const g = puzzle.slice();
  const rows = new Uint16Array(9);
  const cols = new Uint16Array(9);
  const boxes = new Uint16Array(9);
  const empty = new Uint8Array(CELLS);
  let n = 0;
  for (let i = 0; i < CELLS; i++) {
    const v = g[i]!;
    if (v === 0) {
      empty[n++] = i;
      continue;
    }
    const bit = 1 << (v - 1);
    rows[ROW[i]!]! |= bit;
    cols[COL[i]!]! |= bit;
    boxes[BOX[i]!]! |= bit;
  }
  let count = 0;
  let nodes = 0;
  let complete = true;
  // Fills empty[k..n-1]; returns true when the limit or the node bound is reached (stop all).
  const fill = (k: number): boolean => {
    if (++nodes > maxNodes) {
      complete = false;
      return true;
    }
    if (k === n) {
      if (count === 0 && found) found.set(g);
      return ++count >= limit;
    }
    let best = k;
    let bestMask = 0;
    let bestCount = 10;
    for (let j = k; j < n; j++) {
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
    if (bestCount === 0) return false;
    const i = empty[best]!;
    empty[best] = empty[k]!;
    empty[k] = i;
    const r = ROW[i]!;
    const c = COL[i]!;
    const b = BOX[i]!;
    for (let m = bestMask; m; m &= m - 1) {
      const bit = m & -m;
      rows[r]! |= bit;
      cols[c]! |= bit;
      boxes[b]! |= bit;
      g[i] = DIGIT_OF_BIT[bit]!;
      const stop = fill(k + 1);
      rows[r]! &= ~bit;
      cols[c]! &= ~bit;
      boxes[b]! &= ~bit;
      if (stop) return true;
    }
    g[i] = 0;
    return false;
  };
  if (limit > 0) fill(0);
  return { count, complete: complete || count >= limit };
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
