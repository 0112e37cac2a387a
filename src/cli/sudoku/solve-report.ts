// How a solve is reported (`sjd solve`, `sjd eval sudoku`, `sjd demo`): the note on retried
// boards and the exit status when a board is not solved.
import { sudoku } from '../../index.js';

/** The exit status of `sjd solve` when some board is not solved. */
export const EXIT_NOT_SOLVED = 3;

/** " (first attempt 93.60%; 64 boards retried)", or nothing when no board was retried. */
export function retryNote(r: { firstSolved: number; attempts: number[] }): string {
  return retryCounts(r.firstSolved, r.attempts.length, sudoku.retriedBoards(r.attempts));
}

/** retryNote from the counts (boards solved at the first attempt, boards, boards retried). */
export function retryCounts(firstSolved: number, boards: number, retried: number): string {
  if (retried === 0) return '';
  const first = (100 * firstSolved) / boards;
  return ` (first attempt ${first.toFixed(2)}%; ${retried} ${retried === 1 ? 'board' : 'boards'} retried)`;
}
