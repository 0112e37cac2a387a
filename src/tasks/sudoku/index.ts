// The Sudoku task (app:sudoku): grids, exact and logical solvers, generator, CSV and .npy files,
// the qqwing layout with strategy columns, difficulty classes, the training task and its configs,
// solving, scores, the demo and the CADD-vs-SJD comparison.

export * from './data.js';
export * from './demo.js';
export * from './flags.js';
export * from './kept-cells.js';
export * from './load.js';
export * from './metrics.js';
export * from './presets.js';
export * from './puzzle/backtrack.js';
export * from './puzzle/board.js';
export * from './puzzle/by-nodes.js';
export * from './puzzle/check.js';
export * from './puzzle/csv.js';
export * from './puzzle/difficulty.js';
export * from './puzzle/difficulty-file.js';
export * from './puzzle/generate-class.js';
export * from './puzzle/generator.js';
export * from './puzzle/logic-solver.js';
export * from './puzzle/npy.js';
export * from './puzzle/qqwing-csv.js';
export * from './puzzle/search-nodes.js';
export * from './puzzle/strategy-set.js';
export * from './retry.js';
export * from './solve.js';
export * from './solve-defaults.js';
export * from './spec.js';
export * from './start-order.js';
export * from './symmetry.js';
export * from './task.js';
