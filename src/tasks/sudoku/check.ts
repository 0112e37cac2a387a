// What the data readers (CSV, .npy) return, and the one check they apply to every
// puzzle/solution pair, phrased as the problem a one-line error reports.
import { countSolutions } from './backtrack.js';
import {
  type Board,
  cellName,
  findRepeat,
  firstLostClue,
  solutionProblem,
  UNIT_NAMES,
} from './board.js';

/** Puzzles and their solutions (null where the file gives none), in file order. */
export interface SudokuSet {
  puzzles: Board[];
  solutions: (Board | null)[];
}

/**
 * Why a pair is unusable, or null: a digit twice in a unit of the puzzle; a solution that is not
 * a valid grid or changes a clue; without a solution, a puzzle that has none (backtracking).
 */
export function pairProblem(puzzle: Board, solution: Board | null): string | null {
  const rep = findRepeat(puzzle);
  if (rep) return `puzzle has '${rep.digit}' twice in ${UNIT_NAMES[rep.unit]}`;
  if (solution === null) return countSolutions(puzzle, 1) === 0 ? 'puzzle has no solution' : null;
  const bad = solutionProblem(solution);
  if (bad) return `solution is not a valid grid (${bad})`;
  const lost = firstLostClue(puzzle, solution);
  return lost < 0 ? null : `solution does not keep the clue at ${cellName(lost)}`;
}
