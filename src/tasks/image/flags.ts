// The image task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train image` (the image sets, their grey levels, the evaluation loss's set; the last two
// are `sjd compare image`'s too, lab/image/compare-entry.ts), and the grey levels a flag reads.
import { integerIn } from '../../util/flag-values.js';
import { holdOutFlag } from '../common/hold-out.js';
import type { TaskFlag } from '../common/task-spec.js';
import { checkLevels } from './levels.js';

/** `sjd train image`'s own flags and their defaults. */
export interface ImageTrainFlags {
  data?: string; // training images from `sjd data images` (default: Fashion-MNIST train)
  evalData?: string; // held-out images (default: a tenth of --data, or Fashion-MNIST test)
  holdOut?: string; // the share of --data held out for evaluation (tasks/common/hold-out.ts)
  levels?: number; // Fashion-MNIST grey levels
  limit?: number; // only the first N training images
  evalSize?: number;
}
export const IMAGE_TRAIN_DEFAULTS = { evalSize: 256 };

/** Grey levels from a flag: a power of two from 2 to 256 (levels.ts). */
export function parseLevels(value: string): number {
  const n = Number(value);
  try {
    checkLevels(n);
  } catch {
    throw new Error('expected a power of two from 2 to 256');
  }
  return n;
}

export const LIMIT_FLAG: TaskFlag = {
  flags: '--limit <n>',
  description: 'only the first N training images',
  parse: integerIn(1, 100_000_000),
};
export const EVAL_SIZE_FLAG: TaskFlag = {
  flags: '--eval-size <n>',
  description: 'held-out images for the evaluation loss',
  parse: integerIn(1, 100_000),
  default: IMAGE_TRAIN_DEFAULTS.evalSize,
};

/** `sjd train image`'s own flags. */
export const IMAGE_TRAIN_FLAGS: TaskFlag[] = [
  {
    flags: '--data <file>',
    description: 'training images from `sjd data images` (default: Fashion-MNIST train)',
  },
  {
    flags: '--eval-data <file>',
    description: 'held-out images (default: --hold-out of --data, or Fashion-MNIST test)',
  },
  holdOutFlag('images', ' with --data and no --eval-data'),
  {
    flags: '--levels <n>',
    description: 'Fashion-MNIST grey levels, a power of two from 2 to 256 (default 256)',
    parse: parseLevels,
  },
  LIMIT_FLAG,
  EVAL_SIZE_FLAG,
];
