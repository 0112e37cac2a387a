// `sjd compare`: processes compared at a matched budget, one subcommand per task (Sudoku, images,
// text; their shared options in compare-options.ts). Same budget and seeds, resumable; each
// writes its table and plot into docs/.
import type { Command } from 'commander';
import { registerCompareImage } from './compare-image.js';
import { registerCompareSudoku } from './compare-sudoku.js';
import { registerCompareText } from './compare-text.js';
import { group } from './options.js';

export function registerCompare(program: Command): void {
  const cmd = group(program, 'compare', 'compare processes at a matched budget');
  registerCompareSudoku(cmd);
  registerCompareImage(cmd);
  registerCompareText(cmd);
}
