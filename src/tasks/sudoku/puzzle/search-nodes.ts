// Difficulty by search: the nodes of a complete search with singles propagation and
// minimum-remaining-values branching, a measure that does not depend on one solver's strategy list.
// At every node naked and hidden singles are applied until none is left (a contradiction ends the
// branch); a board they finish is a solution; otherwise the blank cell with the fewest candidates
// (the first in row-major order on a tie) is branched on, each candidate in turn, and each branch
// is one node. The search is complete: every branch is explored (it stops only at a second solution
// or at the node cap), so for a puzzle with one solution the count does not depend on the order in
// which digits are tried. 0 nodes: singles alone solve it. The buckets (NODE_BUCKETS): 0, 1-4,
// 5-19, 20-49, 50+.
import { POPCOUNT } from './backtrack.js';
import { type Board, CELLS, hasContradiction } from './board.js';
import {
  type CandidateState,
  candidateState,
  placeDigit,
  propagateSingles,
} from './logic-solver.js';

export interface SearchCount {
  nodes: number; // branches explored (at most the cap)
  solutions: number; // found, at most 2
  complete: boolean; // false when the cap stopped the search first
}

/** The node cap of a count unless told otherwise: beyond every bucket's lower bound. */
export const DEFAULT_NODE_CAP = 100_000;

/**
 * The complete search's node count for `puzzle` (see the header), stopping at a second solution
 * or after `cap` nodes. Singles are the logical solver's (logic-solver.ts).
 */
export function countSearchNodes(puzzle: Board, cap = DEFAULT_NODE_CAP): SearchCount {
  if (hasContradiction(puzzle)) return { nodes: 0, solutions: 0, complete: true };
  let nodes = 0;
  let solutions = 0;
  let complete = true;
  // Explores the board `s`, already a node; returns true to stop everything.
  const visit = (s: CandidateState): boolean => {
    propagateSingles(s);
    if (s.broken) return false;
    let best = -1;
    let bestCount = 10;
    for (let i = 0; i < CELLS; i++) {
      if (s.grid[i] !== 0) continue;
      const c = POPCOUNT[s.cand[i]!]!;
      if (c < bestCount) {
        best = i;
        bestCount = c;
        if (c === 2) break; // singles are placed: no blank has fewer
      }
    }
    if (best < 0) return ++solutions >= 2; // filled by singles from clues that do not clash
    for (let m = s.cand[best]!; m; m &= m - 1) {
      if (nodes >= cap) {
        complete = false;
        return true;
      }
      nodes++;
      const next = { grid: s.grid.slice(), cand: s.cand.slice(), broken: false };
      placeDigit(next, best, m & -m);
      if (visit(next)) return true;
    }
    return false;
  };
  visit(candidateState(puzzle));
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
