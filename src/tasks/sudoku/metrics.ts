// Sudoku metrics (app:sudoku, docs/design.md §5): a board counts as solved when it equals the
// solution, keeps every clue, and every row, column and box is a permutation of 1..9; cell
// accuracy is over the blanks; row/column/box validity are the fractions of valid units.
import { type Board, keepsClues, UNITS, unitIsPermutation } from './puzzle/board.js';

export interface SudokuScores {
  boards: number;
  solve_rate: number;
  cell_accuracy: number;
  row_validity: number;
  column_validity: number;
  box_validity: number;
}

export function scoreBoards(puzzles: Board[], solutions: Board[], answers: Board[]): SudokuScores {
  let solved = 0;
  let cells = 0;
  let blanks = 0;
  const valid = [0, 0, 0]; // rows, columns, boxes (UNITS: 9 rows, 9 columns, 9 boxes)
  answers.forEach((a, n) => {
    const p = puzzles[n]!;
    const s = solutions[n]!;
    let equal = true;
    for (let i = 0; i < 81; i++) {
      if (a[i] !== s[i]) equal = false;
      if (p[i] === 0) {
        blanks++;
        if (a[i] === s[i]) cells++;
      }
    }
    const unitsOk = UNITS.map((_, u) => unitIsPermutation(a, u));
    unitsOk.forEach((ok, k) => {
      if (ok) valid[Math.floor(k / 9)]!++;
    });
    if (equal && keepsClues(p, a) && unitsOk.every(Boolean)) solved++;
  });
  const n = Math.max(1, answers.length);
  return {
    boards: answers.length,
    solve_rate: solved / n,
    cell_accuracy: cells / Math.max(1, blanks),
    row_validity: valid[0]! / (9 * n),
    column_validity: valid[1]! / (9 * n),
    box_validity: valid[2]! / (9 * n),
  };
}
