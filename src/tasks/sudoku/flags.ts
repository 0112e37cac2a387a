// The Sudoku task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train sudoku` (the puzzles, the evaluation during training, the anchors) and the network's,
// which `sjd compare sudoku` takes too (lab/sudoku/compare-entry.ts): the training boards'
// symmetries, the attention pattern, weight-tied looping and its deep supervision; unset, each is
// the size's.

import type { SamplerName } from '../../sampling/index.js';
import { integerIn, nfeValue, oneOf } from '../../util/flag-values.js';
import { samplerFlag } from '../common/flag-values.js';
import type { TaskFlag } from '../common/task-spec.js';
import { SUDOKU_NETWORKS, type SudokuOptions } from './presets.js';

/** `sjd train sudoku`'s own flags and their defaults. */
export interface SudokuTrainFlags extends SudokuOptions {
  data?: string; // training puzzles, .csv or .npy (default: 20,000 generated here)
  evalData?: string; // held-out puzzles (default: generated here)
  evalSize?: number;
  evalNfe?: number;
  evalSampler?: SamplerName;
}
export const SUDOKU_TRAIN_DEFAULTS = {
  evalSize: 200,
  evalNfe: 32,
  evalSampler: 'confidence' as SamplerName,
};

/** The network's flags, shared by `sjd train sudoku` and `sjd compare sudoku`. */
export const SUDOKU_NETWORK_FLAGS: TaskFlag[] = [
  {
    flags: '--network <setting>',
    description: `the network around the size's width, depth and optimiser: ${Object.entries(
      SUDOKU_NETWORKS,
    )
      .map(([k, v]) => `${k} (${v.about})`)
      .join('; ')} (default: the size's own network; --attention and --loops override it)`,
    parse: oneOf(Object.keys(SUDOKU_NETWORKS)),
  },
  {
    flags: '--augment <kind>',
    description:
      "symmetries drawn per training board: none, digits (relabelling), full (digits, bands, stacks, rows, columns, transposition) (default: the size's: full for cpu, else digits)",
    parse: oneOf(['none', 'digits', 'full']),
  },
  {
    flags: '--attention <kind>',
    description:
      "dense, peers (every head sees a cell and its 20 peers) or typed (heads by row, column, box, peers) (default: the size's: peers for cpu, else dense)",
    parse: oneOf(['dense', 'peers', 'typed']),
  },
  {
    flags: '--loops <n>',
    description: "apply the blocks n times with the same weights (default: the size's: 1)",
    parse: integerIn(1, 64),
  },
  {
    flags: '--deep-supervision',
    description:
      'train every loop to answer: the cross-entropy after each loop through the blocks, averaged (needs --loops >= 2)',
  },
];

/** `sjd train sudoku`'s own flags (the evaluation sampler's choices: the registry's now). */
export const sudokuTrainFlags = (): TaskFlag[] => {
  const d = SUDOKU_TRAIN_DEFAULTS;
  return [
    {
      flags: '--data <file>',
      description: 'training puzzles, .csv or .npy (default: 20,000 generated here)',
    },
    { flags: '--eval-data <file>', description: 'held-out puzzles (default: generated here)' },
    {
      flags: '--eval-size <n>',
      description: 'held-out puzzles per evaluation',
      parse: integerIn(1, 100_000),
      default: d.evalSize,
    },
    {
      flags: '--eval-nfe <n>',
      description: 'NFE budget of the evaluation sampler',
      parse: nfeValue,
      default: d.evalNfe,
    },
    samplerFlag('--eval-sampler', 'evaluation sampler', d.evalSampler, true),
    ...SUDOKU_NETWORK_FLAGS,
    {
      flags: '--anchors <mode>',
      description: 'learned (CDCD-normalised) or frozen random anchors',
      parse: oneOf(['learned', 'frozen']),
      default: 'learned',
    },
  ];
};
