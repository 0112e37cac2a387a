// The logical (human-strategy) Sudoku solver on candidate bitmasks. Strategies, easiest first:
// naked single, hidden single (place digits), naked pair, hidden pair, pointing pairs/triples
// (box -> line), box/line reduction (line -> box, "claiming") (eliminate candidates only). The
// solver applies the easiest applicable strategy, once, and starts over from the easiest; it
// never guesses. Grades follow qqwing's labels: simple (naked singles), easy (+ hidden
// singles), intermediate (+ pairs and intersections). Digit d is bit d-1 of a candidate mask.
import { DIGIT_OF_BIT, POPCOUNT } from './backtrack.js';
import { type Board, boxOf, CELLS, isValidSolution, PEERS, rowOf, UNITS } from './board.js';

/** The strategies in order of difficulty. */
export const STRATEGIES = [
  'nakedSingle',
  'hiddenSingle',
  'nakedPair',
  'hiddenPair',
  'pointing',
  'boxLine',
] as const;
export type Strategy = (typeof STRATEGIES)[number];

export type Grade = 'simple' | 'easy' | 'intermediate';

export interface LogicalResult {
  solved: boolean;
  grid: Board; // the cells placed so far (the solution when solved)
  counts: Record<Strategy, number>; // singles: digits placed; others: eliminating applications
  hardest: Strategy | null; // the hardest strategy used (null: nothing to do)
  placements: number[]; // the cells placed, in the order the solver placed them
}

/** A board being solved: digits placed and the candidates left (shared with search-nodes.ts). */
export interface CandidateState {
  grid: Uint8Array; // [81] digits, 0 = blank
  cand: Uint16Array; // [81] candidate masks of blank cells (0 on filled cells)
  broken: boolean; // a contradiction was found: a blank cell or a unit's digit has no place
  placed?: number[]; // when given, every placement's cell is appended, in order
}

type State = CandidateState;

/** The state of `puzzle`: each blank's candidates are the digits no peer holds. */
export function candidateState(puzzle: Board): CandidateState {
  const s: State = { grid: puzzle.slice(), cand: new Uint16Array(CELLS), broken: false };
  for (let i = 0; i < CELLS; i++) {
    if (puzzle[i]) continue;
    let m = 0x1ff;
    for (const p of PEERS[i]!) if (puzzle[p]) m &= ~(1 << (puzzle[p]! - 1));
    s.cand[i] = m;
  }
  return s;
}

/** Places digit `bit` (a one-bit mask) at blank cell i and removes it from the peers' candidates. */
function place(s: State, i: number, bit: number): void {
  s.grid[i] = DIGIT_OF_BIT[bit]!;
  s.cand[i] = 0;
  s.placed?.push(i);
  for (const p of PEERS[i]!) s.cand[p]! &= ~bit;
}

/** Removes `bit` from the cells of `cells` not in `keep`; true when something was removed. */
function eliminate(s: State, cells: Uint8Array, bit: number, keep: (i: number) => boolean) {
  let changed = false;
  for (const i of cells) {
    if (s.cand[i]! & bit && !keep(i)) {
      s.cand[i]! &= ~bit;
      changed = true;
    }
  }
  return changed;
}

/** Places every cell that has a single candidate; returns how many. */
function nakedSingles(s: State): number {
  let placed = 0;
  for (let i = 0; i < CELLS; i++) {
    if (s.grid[i]) continue;
    const m = s.cand[i]!;
    if (m === 0) {
      s.broken = true;
      return placed;
    }
    if ((m & (m - 1)) === 0) {
      place(s, i, m);
      placed++;
    }
  }
  return placed;
}

/** Places one digit that has a single place in some unit. */
function hiddenSingle(s: State): number {
  for (const unit of UNITS) {
    let once = 0;
    let twice = 0;
    let placed = 0;
    for (const i of unit) {
      const m = s.cand[i]!;
      twice |= once & m;
      once |= m;
      if (s.grid[i]) placed |= 1 << (s.grid[i]! - 1);
    }
    if ((once | placed) !== 0x1ff) {
      s.broken = true;
      return 0;
    }
    const lone = once & ~twice;
    if (lone === 0) continue;
    const bit = lone & -lone;
    for (const i of unit) {
      if (s.cand[i]! & bit) {
        place(s, i, bit);
        return 1;
      }
    }
  }
  return 0;
}

export { place as placeDigit };

/** Naked and hidden singles until neither applies, or until a contradiction (s.broken). */
export function propagateSingles(s: CandidateState): void {
  while (!s.broken && (nakedSingles(s) > 0 || (!s.broken && hiddenSingle(s) > 0)));
}

/** Two cells of a unit with the same two candidates: those digits leave the unit's others. */
function nakedPair(s: State): number {
  for (const unit of UNITS) {
    for (let a = 0; a < 9; a++) {
      const m = s.cand[unit[a]!]!;
      if (POPCOUNT[m] !== 2) continue;
      for (let b = a + 1; b < 9; b++) {
        if (s.cand[unit[b]!] !== m) continue;
        const pair = (i: number) => i === unit[a] || i === unit[b];
        const lo = m & -m;
        const changed = eliminate(s, unit, lo, pair);
        if (eliminate(s, unit, m ^ lo, pair) || changed) return 1;
      }
    }
  }
  return 0;
}

/** Two digits confined to the same two cells of a unit: those cells lose other candidates. */
function hiddenPair(s: State): number {
  const where = new Uint16Array(9); // per digit, the mask of unit positions holding it
  for (const unit of UNITS) {
    where.fill(0);
    for (let k = 0; k < 9; k++) {
      for (let m = s.cand[unit[k]!]!; m; m &= m - 1) where[DIGIT_OF_BIT[m & -m]! - 1]! |= 1 << k;
    }
    for (let d = 0; d < 9; d++) {
      if (POPCOUNT[where[d]!] !== 2) continue;
      for (let e = d + 1; e < 9; e++) {
        if (where[e] !== where[d]) continue;
        const keep = (1 << d) | (1 << e);
        let changed = false;
        for (let k = 0; k < 9; k++) {
          const i = unit[k]!;
          if (where[d]! & (1 << k) && s.cand[i]! & ~keep) {
            s.cand[i]! &= keep;
            changed = true;
          }
        }
        if (changed) return 1;
      }
    }
  }
  return 0;
}

/**
 * A digit whose places in unit `from` all lie in one unit `to` of the other kind leaves the
 * rest of `to`. Boxes -> rows/columns is pointing; rows/columns -> boxes is box/line reduction.
 */
function intersection(s: State, fromUnits: readonly Uint8Array[], boxToLine: boolean): number {
  for (const unit of fromUnits) {
    for (let bit = 1; bit < 0x200; bit <<= 1) {
      let rows = 0;
      let cols = 0;
      let boxes = 0;
      let first = -1;
      let n = 0;
      for (const i of unit) {
        if (!(s.cand[i]! & bit)) continue;
        if (n++ === 0) first = i;
        rows |= 1 << rowOf(i);
        cols |= 1 << (i % 9);
        boxes |= 1 << boxOf(i);
      }
      if (n < 2) continue; // one place is a hidden single, not a pair or triple
      const targets = boxToLine
        ? [POPCOUNT[rows] === 1 ? rowOf(first) : -1, POPCOUNT[cols] === 1 ? 9 + (first % 9) : -1]
        : [POPCOUNT[boxes] === 1 ? 18 + boxOf(first) : -1];
      for (const t of targets) {
        if (t >= 0 && eliminate(s, UNITS[t]!, bit, (i) => unit.includes(i))) return 1;
      }
    }
  }
  return 0;
}

const BOXES = UNITS.slice(18);
const LINES = UNITS.slice(0, 18);

/** Each strategy applied once (singles: all naked singles at hand); returns its applications. */
const APPLY: Record<Strategy, (s: State) => number> = {
  nakedSingle: nakedSingles,
  hiddenSingle,
  nakedPair,
  hiddenPair,
  pointing: (s) => intersection(s, BOXES, true),
  boxLine: (s) => intersection(s, LINES, false),
};

/** Solves `puzzle` with the `allowed` strategies (all by default), easiest applicable first. */
export function solveLogically(
  puzzle: Board,
  allowed: readonly Strategy[] = STRATEGIES,
): LogicalResult {
  const order = STRATEGIES.filter((k) => allowed.includes(k));
  const s: State = { ...candidateState(puzzle), placed: [] };
  const counts = Object.fromEntries(STRATEGIES.map((k) => [k, 0])) as Record<Strategy, number>;
  let hardest = -1;
  let progress = true;
  while (progress && !s.broken && s.grid.includes(0)) {
    progress = false;
    for (const k of order) {
      const n = APPLY[k](s);
      if (s.broken) break;
      if (n > 0) {
        counts[k] += n;
        hardest = Math.max(hardest, STRATEGIES.indexOf(k));
        progress = true;
        break;
      }
    }
  }
  const solved = !s.broken && isValidSolution(s.grid);
  return {
    solved,
    grid: s.grid,
    counts,
    hardest: hardest < 0 ? null : STRATEGIES[hardest]!,
    placements: s.placed!,
  };
}

/** qqwing's label for the hardest strategy a logical solve needed. */
export function gradeOf(hardest: Strategy | null): Grade {
  if (hardest === null || hardest === 'nakedSingle') return 'simple';
  return hardest === 'hiddenSingle' ? 'easy' : 'intermediate';
}
