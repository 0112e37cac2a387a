// The Sudoku task's commands: `sjd solve`, `sjd eval sudoku` and `sjd data sudoku` (its training
// and comparison flags are its spec's, tasks/sudoku/flags.ts).
export { registerData } from './data.js';
export { registerEval } from './eval.js';
export { registerSolve } from './solve.js';
