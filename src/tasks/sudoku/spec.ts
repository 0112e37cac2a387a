// The Sudoku task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape, a solve's sampling defaults, the retries /api/models tells the
// page), the shipped model, a training run from `sjd train sudoku`'s flags (app:sudoku; the flags
// in flags.ts) and the comparison of `sjd compare sudoku` (sec:exp-sudoku). Sudoku has no
// unconditional sampling: it is solved from clues (solve.ts, `POST /api/sudoku/solve`).
import type { CompareOptions, TaskSpec, TrainOptions } from '../common/task-spec.js';
import { sudokuModelList } from './compare/autoregressive-run.js';
import { runComparison, sudokuReportFiles } from './compare/comparison.js';
import { pairsOrGenerated } from './data.js';
import {
  checkSudokuCompareFlags,
  SUDOKU_COMPARE_FLAGS,
  SUDOKU_TRAIN_DEFAULTS,
  type SudokuCompareFlags,
  type SudokuTrainFlags,
  sudokuTrainFlags,
} from './flags.js';
import { loadSudokuModel } from './load.js';
import { SUDOKU_PROCESS, SUDOKU_SIZES, sudokuConfig } from './presets.js';
import { sudokuServing } from './serving.js';
import { SudokuTask } from './task.js';

/** The training puzzles: the file given, else 20,000 generated here (saying so on `log`). */
const trainingPuzzles = (data: string | undefined, log?: (line: string) => void) =>
  pairsOrGenerated(data, undefined, { n: 20_000, seed: 1, what: 'training puzzles' }, log);

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
    prepare: (o: TrainOptions & SudokuTrainFlags, saved) => {
      const d = SUDOKU_TRAIN_DEFAULTS;
      const evalSize = o.evalSize ?? d.evalSize;
      // a new run records its --data (config.data), which --resume reuses (cli/resume.ts)
      const config = saved ?? { ...sudokuConfig(o), ...(o.data !== undefined && { data: o.data }) };
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
  compare: {
    description:
      'hybrid (CADD, W = I) against sjd (the constraint-graph W): train every model x seed (resumable), evaluate, write docs',
    models: {
      help: 'sjd-SIGMA (the constraint-graph W at sigma_W SIGMA), ar-ltr and ar-solver (the autoregressive baselines: left-to-right and solver order)',
      defaults: ['hybrid', 'sjd'],
      parse: sudokuModelList,
    },
    seeds: ['0', '1', '2'],
    doc: 'docs/reports/sudoku/comparison.md',
    flags: SUDOKU_COMPARE_FLAGS,
    check: checkSudokuCompareFlags,
    outputs: (o) => sudokuReportFiles(o.doc),
    run: async (o: CompareOptions & SudokuCompareFlags, hooks) => {
      const d = SUDOKU_TRAIN_DEFAULTS;
      const train = trainingPuzzles(o.data, hooks.log);
      const heldOut = { n: o.limit, seed: 2, what: 'held-out puzzles' };
      const test = pairsOrGenerated(o.evalData, o.limit, heldOut, hooks.log);
      const task = new SudokuTask(train.pairs, test.pairs, {
        evalSize: d.evalSize,
        evalNfe: d.evalNfe,
        evalSampler: d.evalSampler,
        augment: sudokuConfig({ size: o.size, augment: o.augment }).augment ?? 'digits',
      });
      hooks.log?.(`evaluating on ${test.pairs.puzzles.length} puzzles from ${test.source}`);
      const runs = await runComparison(task, { ...o, test: test.pairs }, hooks);
      return runs !== null;
    },
  },
};
