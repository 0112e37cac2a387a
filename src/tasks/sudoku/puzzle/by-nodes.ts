// Puzzles by search difficulty: minimal puzzles with one solution (generator.ts with guessing) kept
// when their search-node count (search-nodes.ts) lies in [minNodes, maxNodes] and their clues in
// [minClues, maxClues]. Hard puzzles are rare among random minimal ones (of 1,000 from seed 3: 3.2%
// at 20-49 nodes, 0.1% at 50+), yet drawing is cheap: about 70 ms a puzzle of 20+ nodes and 2 s of
// 50+ on this machine. (Hill climbing on the solution grid, one clue swapped for another cell and
// the puzzle made minimal again, kept when the count does not fall, was tried: 2x slower at 20+ and
// no faster at 50+.) Deterministic for a seed: each draw's seed comes from one generator.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { type Board, CELLS } from './board.js';
import { generatePuzzles } from './generator.js';
import { countSearchNodes } from './search-nodes.js';

export interface NodeRange {
  minNodes: number;
  maxNodes: number; // Infinity: no upper bound
  minClues: number;
  maxClues: number;
}

export interface ByNodesOptions extends Partial<NodeRange> {
  seed: number;
  /** draws for one puzzle before the range is called out of reach (default DRAWS_PER_PUZZLE) */
  draws?: number;
  onPuzzle?: (done: number, n: number) => void; // after each puzzle (a long generation's progress)
}

export interface PuzzleByNodes {
  puzzle: Board;
  solution: Board;
  nodes: number;
}

/** Puzzles drawn for one in range before the range is called out of reach. */
export const DRAWS_PER_PUZZLE = 20_000;

const givensOf = (p: Board) => p.reduce((n, v) => n + (v > 0 ? 1 : 0), 0);

/** Whether a count and a clue count lie in the range. */
export function inNodeRange(r: NodeRange, nodes: number, givens: number): boolean {
  return nodes >= r.minNodes && nodes <= r.maxNodes && givens >= r.minClues && givens <= r.maxClues;
}

/** One puzzle in range (at most `draws` draws). */
function oneByNodes(rng: RandomGenerator, r: NodeRange, draws: number): PuzzleByNodes {
  for (let draw = 0; draw < draws; draw++) {
    const [g] = generatePuzzles(1, { seed: uniformInt(rng, 0, 2 ** 31 - 1), guessing: true });
    const givens = givensOf(g!.puzzle);
    if (givens < r.minClues || givens > r.maxClues) continue;
    const count = countSearchNodes(g!.puzzle, r.maxNodes + 1);
    if (count.complete && inNodeRange(r, count.nodes, givens))
      return { puzzle: g!.puzzle, solution: g!.solution, nodes: count.nodes };
  }
  const nodes =
    r.maxNodes === Number.POSITIVE_INFINITY ? `${r.minNodes}+` : `${r.minNodes}-${r.maxNodes}`;
  throw new Error(
    `no minimal puzzle with ${nodes} search nodes and ${r.minClues}-${r.maxClues} clues in ${draws} draws; widen the range`,
  );
}

/** A clue range from 'N' or 'A-B' (17 to 81), or a one-line error. */
export function parseClueRange(s: string): { minClues: number; maxClues: number } {
  const m = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(s);
  const [lo, hi] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [0, 0];
  if (!m || lo < 17 || hi > CELLS || lo > hi)
    throw new Error(`expected N or A-B with 17 <= A <= B <= ${CELLS} (got '${s}')`);
  return { minClues: lo, maxClues: hi };
}

/** The range with defaults filled in; refuses an empty one in one line. */
export function nodeRange(o: Partial<NodeRange>): NodeRange {
  const r: NodeRange = {
    minNodes: o.minNodes ?? 0,
    maxNodes: o.maxNodes ?? Number.POSITIVE_INFINITY,
    minClues: o.minClues ?? 17,
    maxClues: o.maxClues ?? CELLS,
  };
  if (r.minNodes > r.maxNodes)
    throw new Error(`--min-nodes ${r.minNodes} is above --max-nodes ${r.maxNodes}`);
  if (r.minClues > r.maxClues)
    throw new Error(`the clue range ${r.minClues}-${r.maxClues} is empty`);
  return r;
}

/**
 * `n` minimal puzzles with one solution whose search-node count and clues lie in range,
 * deterministic for the seed.
 */
export function generateByNodes(n: number, o: ByNodesOptions): PuzzleByNodes[] {
  const r = nodeRange(o);
  const rng = xoroshiro128plus(o.seed);
  return Array.from({ length: n }, (_, k) => {
    const p = oneByNodes(rng, r, o.draws ?? DRAWS_PER_PUZZLE);
    o.onPuzzle?.(k + 1, n);
    return p;
  });
}
