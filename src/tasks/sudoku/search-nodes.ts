// Difficulty by search (issue #32): the nodes of a complete search with singles propagation and
// minimum-remaining-values branching, a measure that does not depend on one solver's strategy
// list. At every node naked and hidden singles are applied until none is left (a contradiction
// ends the branch); a board they finish is a solution; otherwise the blank cell with the fewest
// candidates (the first in row-major order on a tie) is branched on, each candidate in turn,
// and each branch is one node. The search is complete: every branch is explored (it stops only
// at a second solution or at the node cap), so for a puzzle with one solution the count does not
// depend on the order in which digits are tried. 0 nodes: singles alone solve it. The buckets
// are the issue's: 0, 1-4, 5-19, 20-49, 50+.
import { DIGIT_OF_BIT, POPCOUNT } from './backtrack.js';
import { type Board, CELLS, PEERS, UNITS } from './board.js';

export interface SearchCount {
  nodes: number; // branches explored (at most the cap)
  solutions: number; // found, at most 2
  complete: boolean; // false when the cap stopped the search first
}

/** The node cap of a count unless told otherwise: beyond every bucket's lower bound. */
export const DEFAULT_NODE_CAP = 100_000;

const ALL = 0x1ff;

/** Candidates [81] of a puzzle (0 on filled cells), or null when two givens clash. */
function candidatesOf(puzzle: Board): { grid: Uint8Array; cand: Uint16Array } | null {
  const grid = new Uint8Array(CELLS);
  const cand = new Uint16Array(CELLS).fill(ALL);
  for (let i = 0; i < CELLS; i++) {
    const v = puzzle[i]!;
    if (v === 0) continue;
    const bit = 1 << (v - 1);
    if (!(cand[i]! & bit)) return null;
    grid[i] = v;
    cand[i] = 0;
    for (const p of PEERS[i]!) cand[p]! &= ~bit;
  }
  for (let i = 0; i < CELLS; i++) if (grid[i] === 0 && cand[i] === 0) return null;
  return { grid, cand };
}

/** Places digit `bit` at blank cell i; false when a peer is left without candidates. */
function place(grid: Uint8Array, cand: Uint16Array, i: number, bit: number): boolean {
  grid[i] = DIGIT_OF_BIT[bit]!;
  cand[i] = 0;
  for (const p of PEERS[i]!) {
    if (grid[p] !== 0 || !(cand[p]! & bit)) continue;
    cand[p]! &= ~bit;
    if (cand[p] === 0) return false;
  }
  return true;
}

/**
 * Naked and hidden singles to a fixed point. Returns -1 on a contradiction, else the blanks left.
 */
function propagate(grid: Uint8Array, cand: Uint16Array): number {
  for (;;) {
    let changed = false;
    for (let i = 0; i < CELLS; i++) {
      if (grid[i] !== 0) continue;
      const m = cand[i]!;
      if (m === 0) return -1;
      if ((m & (m - 1)) === 0) {
        if (!place(grid, cand, i, m)) return -1;
        changed = true;
      }
    }
    for (const unit of UNITS) {
      let once = 0;
      let twice = 0;
      let placed = 0;
      for (const i of unit) {
        if (grid[i] !== 0) {
          placed |= 1 << (grid[i]! - 1);
          continue;
        }
        const m = cand[i]!;
        twice |= once & m;
        once |= m;
      }
      if ((once | placed) !== ALL) return -1; // a digit with no place in this unit
      const single = once & ~twice;
      if (single === 0) continue;
      for (const i of unit) {
        const hit = grid[i] === 0 ? cand[i]! & single : 0;
        if (hit === 0) continue;
        if ((hit & (hit - 1)) !== 0) return -1; // one cell is the only place of two digits
        if (!place(grid, cand, i, hit)) return -1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  let blanks = 0;
  for (let i = 0; i < CELLS; i++) if (grid[i] === 0) blanks++;
  return blanks;
}

/**
 * The complete search's node count for `puzzle` (see the header), stopping at a second solution
 * or after `cap` nodes.
 */
export function countSearchNodes(puzzle: Board, cap = DEFAULT_NODE_CAP): SearchCount {
  const start = candidatesOf(puzzle);
  if (!start) return { nodes: 0, solutions: 0, complete: true };
  let nodes = 0;
  let solutions = 0;
  let complete = true;
  // Explores the board (grid, cand), already a node; returns true to stop everything.
  const visit = (grid: Uint8Array, cand: Uint16Array): boolean => {
    const blanks = propagate(grid, cand);
    if (blanks < 0) return false;
    if (blanks === 0) return ++solutions >= 2;
    let best = -1;
    let bestCount = 10;
    for (let i = 0; i < CELLS; i++) {
      if (grid[i] !== 0) continue;
      const c = POPCOUNT[cand[i]!]!;
      if (c < bestCount) {
        best = i;
        bestCount = c;
        if (c === 2) break;
      }
    }
    for (let m = cand[best]!; m; m &= m - 1) {
      if (nodes >= cap) {
        complete = false;
        return true;
      }
      nodes++;
      const g = grid.slice();
      const c = cand.slice();
      if (place(g, c, best, m & -m) && visit(g, c)) return true;
    }
    return false;
  };
  visit(start.grid, start.cand);
  return { nodes, solutions, complete };
}

/** The difficulty buckets by search nodes: [label, lowest, highest] (inclusive). */
export const NODE_BUCKETS: readonly (readonly [string, number, number])[] = [
  ['0', 0, 0],
  ['1-4', 1, 4],
  ['5-19', 5, 19],
  ['20-49', 20, 49],
  ['50+', 50, Number.POSITIVE_INFINITY],
];

/** The bucket label of a node count. */
export function nodeBucket(nodes: number): string {
  return NODE_BUCKETS.find(([, lo, hi]) => nodes >= lo && nodes <= hi)![0];
}
