// The Sudoku task's data layer: grids, exact and logical solvers, generator, CSV and .npy files.
export * from './backtrack.js';
export * from './board.js';
export * from './check.js';
export * from './csv.js';
export * from './generator.js';
export * from './npy.js';
export * from './solver.js';
