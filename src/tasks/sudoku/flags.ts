// The Sudoku task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train sudoku` (the puzzles, the evaluation during training, the anchors) and of `sjd
// compare sudoku` (the final evaluation's budgets), the network's that both take (the training
// boards' symmetries, the attention pattern, weight-tied looping and its deep supervision; unset,
// each is the size's), and --processes, the earlier name of --models.
import { integerIn, nfeValue, oneOf } from '../../util/flag-values.js';
import { modelList, samplerFlag } from '../common/flag-values.js';
import type { TaskFlag } from '../common/task-spec.js';
import { SUDOKU_NETWORKS, type SudokuOptions } from './presets.js';

/** `sjd train sudoku`'s own flags and their defaults. */
export interface SudokuTrainFlags extends SudokuOptions {
  data?: string; // training puzzles, .csv or .npy (default: 20,000 generated here)
  evalData?: string; // held-out puzzles (default: generated here)
  evalSize?: number;
  evalNfe?: number;
  evalSampler?: string;
}
export const SUDOKU_TRAIN_DEFAULTS = { evalSize: 200, evalNfe: 32, evalSampler: 'confidence' };

/** `sjd compare sudoku`'s own flags. */
export interface SudokuCompareFlags extends SudokuOptions {
  evalEvery?: number;
  limit: number; // held-out puzzles of the final evaluation
  nfe: number; // the confidence policy's
  adaptiveNfe: number; // the adaptive sampler's cap
  data?: string;
  evalData?: string;
}

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
    description: "NFE of the final evaluation by the paper's confidence policy",
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
