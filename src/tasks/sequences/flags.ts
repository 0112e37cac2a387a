// The sequences task's own flags of `sjd train sequences` (common/task-spec.ts TaskFlag), which its
// spec declares: the data file, its alphabet and length, and the evaluation during training.
import { integerIn, nfeValue } from '../../util/flag-values.js';
import { declaredAlphabet } from '../common/alphabet.js';
import { holdOutFlag } from '../common/hold-out.js';
import type { TaskFlag } from '../common/task-spec.js';

/** `sjd train sequences`'s own flags. */
export interface SequenceTrainFlags {
  data?: string; // a FASTA file or one sequence a line (required)
  alphabet?: string; // declared symbols in order (default: those the data uses)
  length?: number; // L (default: the longest sequence)
  pad?: boolean; // pad shorter sequences (default: when lengths differ)
  holdOut?: string; // the share of --data held out for evaluation (default: one in ten)
  evalSamples?: number;
  evalNfe?: number;
}
export const SEQUENCE_TRAIN_DEFAULTS = { evalSamples: 64, evalNfe: 32 };

export const SEQUENCE_TRAIN_FLAGS: TaskFlag[] = [
  { flags: '--data <file>', description: 'the sequences: a FASTA file, or one sequence a line' },
  {
    flags: '--alphabet <symbols>',
    description: 'the symbols in their order, e.g. ACGT (default: those the data uses)',
    parse: (v) => {
      declaredAlphabet(v); // refuses a repeated symbol or whitespace
      return v;
    },
  },
  {
    flags: '--length <n>',
    description: 'the model length L (default: the longest sequence)',
    parse: integerIn(1, 100_000),
  },
  {
    flags: '--pad',
    description: 'pad shorter sequences to the length (the default when lengths differ)',
  },
  holdOutFlag('sequences'),
  {
    flags: '--eval-samples <n>',
    description: 'samples scored (3-mer distance to held-out) at each evaluation',
    parse: integerIn(1, 100_000),
    default: SEQUENCE_TRAIN_DEFAULTS.evalSamples,
  },
  {
    flags: '--eval-nfe <n>',
    description: 'NFE of the evaluation samples',
    parse: nfeValue,
    default: SEQUENCE_TRAIN_DEFAULTS.evalNfe,
  },
];
