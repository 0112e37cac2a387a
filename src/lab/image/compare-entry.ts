// `sjd compare image` (tab:cifar10_fid at this machine's budget): its own flags (the scored
// samples' budgets, samplers and top-p, the sets, the feature network that scores them) and the
// entry the command builds: every model x seed trained on one U-Net (resumable), each scored by
// FD/KID at each NFE, the report written (comparison.ts).

import type { SamplerName } from '../../sampling/index.js';
import { gaussianSampler, nfesFlag } from '../../tasks/common/flag-values.js';
import type { CompareEntry, CompareOptions, TaskFlag } from '../../tasks/common/task-spec.js';
import { loadFeatureNet, SHIPPED_FEATURES } from '../../tasks/image/feature-train.js';
import { EVAL_SIZE_FLAG, LIMIT_FLAG, parseLevels } from '../../tasks/image/flags.js';
import { imagesOrFashion } from '../../tasks/image/source.js';
import { ImageTask } from '../../tasks/image/task.js';
import { integerIn, numberIn } from '../../util/flag-values.js';
import { imageReportFiles, runImageComparison } from './comparison.js';
import { MD4_TOP_P } from './scores.js';

/** `sjd compare image`'s own flags. */
export interface ImageCompareFlags {
  nfes: number[];
  sampler: SamplerName; // of the hybrid and sjd models (masked ones: MDLM's)
  maskedTopP: number;
  topP: number; // of the hybrid and sjd models' draws
  n: number; // images per scored set
  levels: number;
  limit?: number;
  evalSize: number; // held-out images for each run's evaluation loss
  features: string; // the feature network's folder
}

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

export const imageComparison: CompareEntry = {
  description:
    'masked (MDLM), hybrid (CADD) and sjd over sigma_B on one U-Net: train every model x seed (resumable), score FD/KID at each NFE, write docs',
  models: {
    help: 'sjd-SIGMA (the blur of values at sigma_B SIGMA), ddpm, bitdiff (the pixel-space DDPM and Bit Diffusion)',
    defaults: ['masked', 'hybrid', 'sjd-1.5', 'sjd-2', 'sjd-2.5'],
  },
  seeds: [0],
  doc: 'docs/reports/image/comparison.md',
  flags: IMAGE_COMPARE_FLAGS,
  outputs: (o) => {
    const f = imageReportFiles(o.doc, o.models);
    return { report: f.report, beside: [f.svg, ...f.grids] };
  },
  run: async (o: CompareOptions & ImageCompareFlags, hooks) => {
    const { net, config: fc } = loadFeatureNet(o.features);
    const train = imagesOrFashion(undefined, 'train', { levels: o.levels, limit: o.limit });
    const test = imagesOrFashion(undefined, 'test', { levels: o.levels });
    const task = new ImageTask(train.set, test.set, { evalSize: o.evalSize });
    const path = o.features === SHIPPED_FEATURES ? 'models/fashion-features' : o.features;
    const runs = await runImageComparison(
      task,
      {
        ...o,
        features: { net, path, accuracy: fc.testAccuracy },
        train: train.set,
        test: test.set,
      },
      hooks,
    );
    return runs !== null;
  },
};
