// The image task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train image` (the image sets, their grey levels, the evaluation loss's set) and of `sjd
// compare image` (the budgets, samplers and top-p of the scored samples, the sets, the feature
// network that scores them; tab:cifar10_fid), and the grey levels a flag reads.
import { integerIn, numberIn } from '../../util/flag-values.js';
import { gaussianSampler, nfesFlag } from '../common/flag-values.js';
import type { TaskFlag } from '../common/task-spec.js';
import { MD4_TOP_P } from './compare/scores.js';
import { SHIPPED_FEATURES } from './feature-train.js';
import { checkLevels } from './levels.js';

/** `sjd train image`'s own flags and their defaults. */
export interface ImageTrainFlags {
  data?: string; // training images from `sjd data images` (default: Fashion-MNIST train)
  evalData?: string; // held-out images (default: Fashion-MNIST test)
  levels?: number; // Fashion-MNIST grey levels
  limit?: number; // only the first N training images
  evalSize?: number;
}
export const IMAGE_TRAIN_DEFAULTS = { evalSize: 256 };

/** `sjd compare image`'s own flags. */
export interface ImageCompareFlags {
  nfes: string[];
  sampler: string; // of the hybrid and sjd models (masked ones: MDLM's)
  maskedTopP: number;
  topP: number; // of the hybrid and sjd models' draws
  n: number; // images per scored set
  levels: number;
  limit?: number;
  evalSize: number; // held-out images for each run's evaluation loss
  features: string; // the feature network's folder
}

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

const LIMIT_FLAG: TaskFlag = {
  flags: '--limit <n>',
  description: 'only the first N training images',
  parse: integerIn(1, 100_000_000),
};
const EVAL_SIZE_FLAG: TaskFlag = {
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
  { flags: '--eval-data <file>', description: 'held-out images (default: Fashion-MNIST test)' },
  {
    flags: '--levels <n>',
    description: 'Fashion-MNIST grey levels, a power of two from 2 to 256 (default 256)',
    parse: parseLevels,
  },
  LIMIT_FLAG,
  EVAL_SIZE_FLAG,
];

/** `sjd compare image`'s own flags. */
export const IMAGE_COMPARE_FLAGS: TaskFlag[] = [
  nfesFlag('NFE of the scored samples', [32, 64, 128, 256]),
  {
    flags: '--sampler <name>',
    description: 'sampler of the hybrid and sjd models (masked models: mdlm)',
    parse: gaussianSampler,
    default: 'ancestral',
  },
  {
    flags: '--masked-top-p <p>',
    description: "top-p of the masked models' draws (the paper's MD4)",
    parse: numberIn(1e-6, 1),
    default: MD4_TOP_P,
  },
  {
    flags: '--top-p <p>',
    description:
      "top-p of the hybrid and sjd models' commit draws (1: the whole distribution, as the paper's)",
    parse: numberIn(1e-6, 1),
    default: 1,
  },
  {
    flags: '-n, --n <n>',
    description: 'images per scored set',
    parse: integerIn(20, 100_000),
    default: 1000,
  },
  {
    flags: '--levels <n>',
    description: 'Fashion-MNIST grey levels',
    parse: parseLevels,
    default: 16,
  },
  LIMIT_FLAG,
  EVAL_SIZE_FLAG,
  {
    flags: '--features <dir>',
    description: 'the feature network (default: the shipped one)',
    default: SHIPPED_FEATURES,
    localDefault: true,
  },
];
