// What `sjd eval sudoku` prints of its scores: one line over all the boards (rates, boards/s, the
// sampler and the NFE the boards took, the retries), one per difficulty class and where the
// classes came from, and one per search-node bucket.
import { sudoku, util } from '../../index.js';
import { retryNote } from './solve-report.js';

/** The scores of an evaluation, and the boards they are over. */
export interface SudokuEval {
  s: sudoku.SudokuScores; // over every board
  r: sudoku.SolveResult; // the solve, aligned with the boards
  byDifficulty: sudoku.DifficultyScores;
  byNodes: sudoku.NodeScores;
  classSource: string; // 'columns': the file's strategy columns; else the logical solver's
  seconds: number;
}

const pct = (x: number, digits = 2) => (100 * x).toFixed(digits);

/** The lines of `sjd eval sudoku` (`out`: its results; `how`: the sampler's label). */
export function printScores(
  e: SudokuEval,
  out: { boards_per_s: number; nfe_mean: number; nfe_max: number; nfe: number },
  how: string,
): void {
  const { s, byDifficulty, byNodes } = e;
  console.log(
    `${util.counted(s.boards, 'board')}: solve rate ${pct(s.solve_rate)}%, cell accuracy ${pct(s.cell_accuracy)}%, ` +
      `rows/columns/boxes valid ${pct(s.row_validity, 1)}/${pct(s.column_validity, 1)}/${pct(s.box_validity, 1)}%, ` +
      `${out.boards_per_s.toFixed(1)} boards/s (${how}; NFE per board mean ${out.nfe_mean.toFixed(1)}, max ${out.nfe_max} of ${out.nfe})${retryNote(e.r)}`,
  );
  for (const c of sudoku.DIFFICULTY_CLASSES) {
    const d = byDifficulty[c];
    if (d)
      console.log(
        `  ${c}: ${util.counted(d.boards, 'board')}, solve rate ${pct(d.solve_rate)}%, cell accuracy ${pct(d.cell_accuracy)}%, NFE per board mean ${d.nfe_mean!.toFixed(1)}`,
      );
  }
  console.log(
    `  (difficulty ${e.classSource === 'columns' ? "from the file's strategy columns" : 'by the logical solver'})`,
  );
  console.log('  by search nodes (a complete search with singles propagation):');
  for (const [label] of sudoku.NODE_BUCKETS) {
    const d = byNodes[label];
    if (!d) continue;
    const rate = d.boards_per_s === undefined ? '' : `, ${d.boards_per_s.toFixed(1)} boards/s`;
    console.log(
      `  ${label.padStart(5)} nodes: ${util.counted(d.boards, 'board')}, solve rate ${pct(d.solve_rate)}%, first attempt ${pct(d.first_attempt_rate!)}%, NFE per board mean ${d.nfe_mean!.toFixed(1)}, max ${d.nfe_max}${rate}`,
    );
  }
}
