// The Sudoku task as the commands and `sjd serve` see it (issue #28; task-spec.ts): its saved
// models' shape (81 cells, the row/column/box structure), the shipped model, the sampling
// defaults of a solve (the adaptive sampler and its NFE cap per board), a training run from
// `sjd train sudoku`'s flags (app:sudoku), and the retries /api/models tells the page. Sudoku
// has no unconditional sampling: it is solved from clues (solve.ts, `POST /api/sudoku/solve`).
import type { TaskSpec, TrainOptions } from '../task-spec.js';
import { pairsOrGenerated } from './data.js';
import { loadSudokuModel } from './load.js';
import { SUDOKU_PROCESS, SUDOKU_SIZES, type SudokuOptions, sudokuConfig } from './presets.js';
import { DEFAULT_RETRIES } from './retry.js';
import { DEFAULT_SUDOKU_SAMPLER, defaultSudokuNfe } from './solve.js';
import { SudokuTask, sudokuShape } from './task.js';

/** `sjd train sudoku`'s own flags and their defaults. */
export interface SudokuTrainFlags extends SudokuOptions {
  data?: string; // training puzzles, .csv or .npy (default: 20,000 generated here)
  evalData?: string; // held-out puzzles (default: generated here)
  evalSize?: number;
  evalNfe?: number;
  evalSampler?: string;
}
export const SUDOKU_TRAIN_DEFAULTS = { evalSize: 200, evalNfe: 32, evalSampler: 'confidence' };

export const sudokuSpec: TaskSpec = {
  name: 'sudoku',
  shape: () => sudokuShape,
  load: loadSudokuModel,
  sampling: {
    sampler: () => DEFAULT_SUDOKU_SAMPLER,
    nfe: (sampler = DEFAULT_SUDOKU_SAMPLER) => defaultSudokuNfe(sampler),
    temperature: 1,
  },
  train: {
    description: 'train a Sudoku denoiser (default: sjd with the constraint-graph W)',
    sizes: SUDOKU_SIZES,
    defaults: SUDOKU_PROCESS,
    prepare: (o: TrainOptions & SudokuTrainFlags, saved) => {
      const d = SUDOKU_TRAIN_DEFAULTS;
      const evalSize = o.evalSize ?? d.evalSize;
      const config = saved ?? sudokuConfig(o);
      const { pairs: trainSet, source } = pairsOrGenerated(o.data, undefined, {
        n: 20_000,
        seed: 1,
      });
      const held = pairsOrGenerated(o.evalData, evalSize, { n: evalSize, seed: 2 });
      const task = new SudokuTask(trainSet, held.pairs, {
        evalSize,
        evalNfe: o.evalNfe ?? d.evalNfe,
        evalSampler: o.evalSampler ?? d.evalSampler,
        augment: config.augment ?? 'digits',
      });
      const about = `${trainSet.puzzles.length} training puzzles from ${source}; evaluating on ${held.pairs.puzzles.length} from ${held.source}`;
      return { config, task, about };
    },
  },
  apiInfo: { retries: DEFAULT_RETRIES }, // a solve's (retry.ts)
};
