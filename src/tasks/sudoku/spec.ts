// The Sudoku task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape, a solve's sampling defaults, the retries /api/models tells the
// page), the shipped model, a training run from `sjd train sudoku`'s flags (app:sudoku; the flags
// in flags.ts); its comparison is the lab's (lab/sudoku/compare-entry.ts). Sudoku has no
// unconditional sampling: it is solved from clues (solve.ts, `POST /api/sudoku/solve`).
import type { TaskSpec, TrainOptions } from '../common/task-spec.js';
import { pairsOrGenerated, trainingPuzzles } from './data.js';
import { SUDOKU_TRAIN_DEFAULTS, type SudokuTrainFlags, sudokuTrainFlags } from './flags.js';
import { loadSudokuModel } from './load.js';
import { SUDOKU_PROCESS, SUDOKU_SIZES, sudokuConfig } from './presets.js';
import { sudokuServing } from './serving.js';
import { SudokuTask } from './task.js';

/** A new run's config: the preset's, and its --data (which --resume reuses: cli/resume.ts). */
const newRunConfig = (o: TrainOptions & SudokuTrainFlags) => ({
  ...sudokuConfig(o),
  ...(o.data !== undefined && { data: o.data }),
});

export const sudokuSpec: TaskSpec = {
  ...sudokuServing,
  load: loadSudokuModel,
  train: {
    description: 'train a Sudoku denoiser (default: sjd with the constraint-graph W)',
    sizes: SUDOKU_SIZES,
    defaults: SUDOKU_PROCESS,
    // when the command is built: the evaluation sampler's choices are the registry's then
    get flags() {
      return sudokuTrainFlags();
    },
    config: newRunConfig,
    prepare: (o: TrainOptions & SudokuTrainFlags, saved) => {
      const d = SUDOKU_TRAIN_DEFAULTS;
      const evalSize = o.evalSize ?? d.evalSize;
      const config = saved ?? newRunConfig(o);
      // the training data first: a --data that cannot be read is refused before any work
      const train = trainingPuzzles(o.data, o.log);
      const heldOut = { n: evalSize, seed: 2, what: 'held-out puzzles' };
      const held = pairsOrGenerated(o.evalData, evalSize, heldOut, o.log);
      const task = new SudokuTask(train.pairs, held.pairs, {
        evalSize,
        evalNfe: o.evalNfe ?? d.evalNfe,
        evalSampler: o.evalSampler ?? d.evalSampler,
        augment: config.augment ?? 'digits',
      });
      const about = `${task.train.puzzles.length} training puzzles from ${train.source}; evaluating on ${held.pairs.puzzles.length} from ${held.source}`;
      return { config, task, about };
    },
  },
};
