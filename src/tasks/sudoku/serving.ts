// Serving the Sudoku task (common/task-spec.ts TaskServing): its models' shape (81 cells, the
// row/column/box structure), the sampling defaults of a solve (Sudoku's rules, the adaptive
// sampler that undoes what breaks them, its NFE cap per board), a model from its files' bytes, and
// the retries /api/models tells the page. Sudoku has no unconditional sampling: it is solved from
// clues (solve.ts). Reads no files: a browser bundle holds it.
import { modelFromFiles } from '../../train/model-io.js';
import type { TaskServing } from '../common/task-spec.js';
import { DEFAULT_RETRIES } from './retry.js';
import { SUDOKU_SAMPLING } from './solve.js';
import { sudokuShape } from './task.js';

export const sudokuServing: TaskServing = {
  name: 'sudoku',
  shape: () => sudokuShape,
  sampling: SUDOKU_SAMPLING,
  fromFiles: (configText, weights, source) =>
    modelFromFiles(configText, weights, sudokuShape, source),
  apiInfo: { retries: DEFAULT_RETRIES }, // a solve's (retry.ts)
};
