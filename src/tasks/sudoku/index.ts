// The Sudoku task (app:sudoku): grids, exact and logical solvers, generator, CSV and .npy files,
// the qqwing layout with strategy columns, difficulty classes, the training task and its configs,
// solving, scores, the demo and the CADD-vs-SJD comparison.
export * from './backtrack.js';
export * from './board.js';
export * from './by-nodes.js';
export * from './check.js';
export * from './compare.js';
export * from './csv.js';
export * from './data.js';
export * from './demo.js';
export * from './difficulty.js';
export * from './generate-class.js';
export * from './generator.js';
export * from './load.js';
export * from './metrics.js';
export * from './npy.js';
export * from './presets.js';
export * from './qqwing-csv.js';
export * from './remask.js';
export * from './retry.js';
export * from './search-nodes.js';
export * from './solve.js';
export * from './solve-pool.js';
export * from './solver.js';
export * from './spec.js';
export * from './strategy-set.js';
export * from './symmetry.js';
export * from './task.js';
