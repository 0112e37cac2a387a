// What the data readers (CSV, .npy) return, the one check they apply to every puzzle/solution
// pair, and the check of a solver's answer: the ways it breaks the rules (a clue changed, a
// digit repeated in a row, column or box, a blank left), with how many solutions the puzzle has
// (logical solving, else backtracking bounded in search nodes: "unknown" past the bound).
import { countSolutionsBounded } from './backtrack.js';
import {
  type Board,
  CELLS,
  cellName,
  findRepeat,
  firstLostClue,
  solutionProblem,
  UNIT_NAMES,
  unitRepeats,
} from './board.js';
import { solveLogically } from './logic-solver.js';

/** Puzzles and their solutions (null where the file gives none), in file order. */
export interface SudokuSet {
  puzzles: Board[];
  solutions: (Board | null)[];
}

/** The search nodes a solution count may visit before it answers 'unknown' (about 0.3 s). */
export const SEARCH_NODES = 2_000_000;

export type SolutionCount = 'none' | 'one' | 'several' | 'unknown';

/**
 * Whether `puzzle` has no solution, one or several: a logical solve proves a unique one at
 * once; otherwise backtracking counts to 2 within `maxNodes` nodes, 'unknown' past them.
 */
export function solutionCount(puzzle: Board, maxNodes = SEARCH_NODES): SolutionCount {
  if (solveLogically(puzzle).solved) return 'one';
  const { count, complete } = countSolutionsBounded(puzzle, 2, maxNodes);
  if (count >= 2) return 'several';
  if (!complete) return 'unknown';
  return count === 1 ? 'one' : 'none';
}

/** A digit twice in a unit of the puzzle, or null: the fault of the puzzle, whatever its solution. */
export function repeatProblem(puzzle: Board): string | null {
  const rep = findRepeat(puzzle);
  return rep ? `puzzle has '${rep.digit}' twice in ${UNIT_NAMES[rep.unit]}` : null;
}

/**
 * Why a pair is unusable, or null: a digit twice in a unit of the puzzle; a solution that is not
 * a valid grid or changes a clue; without a solution, a puzzle that has none (backtracking,
 * bounded: a puzzle the bound leaves undecided is kept).
 */
export function pairProblem(puzzle: Board, solution: Board | null): string | null {
  const rep = repeatProblem(puzzle);
  if (rep) return rep;
  if (solution === null) {
    const { count, complete } = countSolutionsBounded(puzzle, 1, SEARCH_NODES);
    return count === 0 && complete ? 'puzzle has no solution' : null;
  }
  const bad = solutionProblem(solution);
  if (bad) return `solution is not a valid grid (${bad})`;
  const lost = firstLostClue(puzzle, solution);
  return lost < 0 ? null : `solution does not keep the clue at ${cellName(lost)}`;
}

/**
 * Every way `answer` fails to solve `puzzle`, empty when it solves it (each clue kept, every
 * row, column and box a permutation of 1..9): "row 1 column 8 changes the clue 1 to 3",
 * "row 3 column 4 is blank", "row 3 repeats 7", "box 5 repeats 2 and 8".
 */
export function answerProblems(puzzle: Board, answer: Board): string[] {
  const out: string[] = [];
  for (let i = 0; i < CELLS; i++) {
    const v = answer[i]!;
    if (puzzle[i] !== 0 && v !== puzzle[i])
      out.push(`${cellName(i)} changes the clue ${puzzle[i]} to ${v === 0 ? 'blank' : v}`);
    else if (!(v >= 1 && v <= 9)) out.push(`${cellName(i)} is ${v === 0 ? 'blank' : v}`);
  }
  for (let u = 0; u < 27; u++) {
    const digits = unitRepeats(answer, u);
    if (digits.length > 0) out.push(`${UNIT_NAMES[u]} repeats ${digits.join(' and ')}`);
  }
  return out;
}

const COUNT_WORDS: Record<SolutionCount, string> = {
  none: 'the puzzle has no solution',
  one: 'the puzzle has one solution',
  several: 'the puzzle has several solutions',
  unknown: `the number of solutions is unknown (search stopped after ${SEARCH_NODES} nodes)`,
};

/**
 * Why an answer fails, in one line without commas (it is a CSV field too): its problems
 * (answerProblems) and how many solutions the puzzle has:
 * "row 3 repeats 7; box 5 repeats 2; the puzzle has one solution".
 */
export function failureReason(puzzle: Board, problems: readonly string[]): string {
  return [...problems, COUNT_WORDS[solutionCount(puzzle)]].join('; ');
}

/** The verdict on an answer: null when it solves the puzzle, else failureReason. */
export function answerVerdict(puzzle: Board, answer: Board): string | null {
  const problems = answerProblems(puzzle, answer);
  return problems.length === 0 ? null : failureReason(puzzle, problems);
}
