// The Sudoku lab: the comparison of `sjd compare sudoku` (its runs, final evaluation, report and
// autoregressive baselines) and the solve pool that spreads many puzzles over worker processes.
export * from './compare-entry.js';
export * from './comparison.js';
export * from './options.js';
export * from './report.js';
export * from './solve-grouped.js';
export * from './solve-in-turns.js';
export * from './solve-pool.js';
