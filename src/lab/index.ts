// sjd's lab (`import 'sjd/lab'`): what reproduces the paper's tables on top of the library. The
// comparisons (each task's: train every model x seed, score, write the Markdown report with its
// plot and verdicts), the run queue that lets several processes share them, runs kept without
// their weights, where the runs under a folder stand, and the Sudoku solve pool (worker processes
// for many puzzles). Nothing below it imports it: the library (`sjd`) knows no report.

export * from './comparison-report.js';
export { COMPARISONS, comparisons } from './comparisons.js';
export * as image from './image/index.js';
export { keptResult } from './kept-run.js';
export { type QueuedRun, type QueueOptions, workThrough } from './run-queue.js';
export { type RunStatus, runsUnder } from './run-status.js';
export * as sudoku from './sudoku/index.js';
export * as text from './text/index.js';
export { trainToEnd, trainUnlessScored } from './train-to-end.js';
