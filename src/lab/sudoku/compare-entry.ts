// `sjd compare sudoku` (sec:exp-sudoku, tab:sudoku_schedule_ablations): its own flags (the network's,
// the final evaluation's budgets and held-out puzzles, --processes as the earlier name of
// --models) and the entry the command builds: every model x seed trained (resumable), each scored
// by the final evaluation, the report written (comparison.ts).

import { modelList } from '../../tasks/common/flag-values.js';
import type { CompareEntry, CompareOptions, TaskFlag } from '../../tasks/common/task-spec.js';
import { pairsOrGenerated, trainingPuzzles } from '../../tasks/sudoku/data.js';
import { SUDOKU_NETWORK_FLAGS, SUDOKU_TRAIN_DEFAULTS } from '../../tasks/sudoku/flags.js';
import { type SudokuOptions, sudokuConfig } from '../../tasks/sudoku/presets.js';
import { SudokuTask } from '../../tasks/sudoku/task.js';
import { integerIn, nfeValue } from '../../util/flag-values.js';
import { sudokuModelList } from './autoregressive-run.js';
import { runComparison } from './comparison.js';
import { sudokuReportFiles } from './report.js';

/** `sjd compare sudoku`'s own flags. */
export interface SudokuCompareFlags extends SudokuOptions {
  evalEvery?: number;
  limit: number; // held-out puzzles of the final evaluation
  nfe: number; // the confidence policy's
  adaptiveNfe: number; // the adaptive sampler's cap
  data?: string;
  evalData?: string;
}

/** `sjd compare sudoku`'s own flags. */
export const SUDOKU_COMPARE_FLAGS: TaskFlag[] = [
  ...SUDOKU_NETWORK_FLAGS,
  {
    flags: '--eval-every <n>',
    description: "held-out evaluation period in steps (default: the size's)",
    parse: integerIn(1, 1_000_000_000),
  },
  {
    flags: '--processes <list>',
    description: 'the earlier name of --models',
    parse: modelList,
    hidden: true,
  },
  {
    flags: '--limit <n>',
    description: 'held-out puzzles for the final evaluation',
    parse: integerIn(1, 1_000_000),
    default: 1000,
  },
  {
    flags: '--nfe <n>',
    description: 'NFE of the final evaluation by the confidence policy (--sampler confidence)',
    parse: nfeValue,
    default: 32,
  },
  {
    flags: '--adaptive-nfe <n>',
    description: "the adaptive sampler's NFE cap in the final evaluation",
    parse: nfeValue,
    default: 64,
  },
  { flags: '--data <file>', description: 'training puzzles (default: 20,000 generated here)' },
  { flags: '--eval-data <file>', description: 'held-out puzzles (default: generated here)' },
];

/** --processes is read as --models; both given is refused. */
export function checkSudokuCompareFlags(
  flags: Record<string, unknown>,
  given: (name: string) => boolean,
): Record<string, unknown> | undefined {
  if (flags.processes && given('models'))
    throw new Error('give --models or its earlier name --processes, not both');
  return flags.processes ? { models: flags.processes } : undefined;
}

export const sudokuComparison: CompareEntry = {
  description:
    'hybrid (CADD, W = I) against sjd (the constraint-graph W): train every model x seed (resumable), evaluate, write docs',
  models: {
    help: 'sjd-SIGMA (the constraint-graph W at sigma_W SIGMA), ar-ltr and ar-solver (the autoregressive baselines: left-to-right and solver order)',
    defaults: ['hybrid', 'sjd'],
    parse: sudokuModelList,
  },
  seeds: [0, 1, 2],
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
};
