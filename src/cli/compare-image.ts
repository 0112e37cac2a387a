// `sjd compare image`: masked (MDLM), hybrid (CADD) and sjd over sigma_B on one U-Net, every
// model x seed trained (resumable) and scored (FD/KID) at each NFE (tasks/image/compare.ts).
import type { Command } from 'commander';
import { image } from '../index.js';
import {
  type ComparisonFlags,
  checkOutputs,
  comparison,
  gaussianSampler,
  list,
  logHooks,
  markdownFile,
  reportDone,
} from './compare-options.js';
import { int, levels, nfe, num } from './options.js';
import { reproduceLine } from './reproduce.js';

interface ImageCompareFlags extends ComparisonFlags {
  nfes: number[];
  sampler: string;
  maskedTopP: number;
  n: number;
  levels: number;
  limit?: number;
  features: string;
}

export function registerCompareImage(cmd: Command): void {
  comparison(
    cmd.command('image'),
    'masked (MDLM), hybrid (CADD) and sjd over sigma_B on one U-Net: train every model x seed (resumable), score FD/KID at each NFE, write docs',
    Object.keys(image.IMAGE_SIZES),
    'sjd-SIGMA (the blur of values at sigma_B SIGMA)',
    ['masked', 'hybrid', 'sjd-1.5', 'sjd-2', 'sjd-2.5'],
  )
    .option(
      '--nfes <list>',
      'NFE of the scored samples',
      list((s) => nfe(s), 'expected a comma-separated list of NFE'),
      ['32', '64', '128', '256'],
    )
    .option(
      '--sampler <name>',
      'sampler of the hybrid and sjd models (masked models: mdlm)',
      gaussianSampler,
      'ancestral',
    )
    .option(
      '--masked-top-p <p>',
      "top-p of the masked models' draws (the paper's MD4)",
      num(1e-6, 1),
      0.98,
    )
    .option('-n, --n <n>', 'images per scored set', int(20, 100_000), 1000)
    .option('--levels <n>', 'Fashion-MNIST grey levels', levels, 16)
    .option('--limit <n>', 'only the first N training images', int(1, 100_000_000))
    .option(
      '--features <dir>',
      'the feature network (default: the shipped one)',
      image.SHIPPED_FEATURES,
    )
    .option(
      '--doc <file>',
      'the Markdown report (plot and grids beside it)',
      markdownFile,
      'docs/image-comparison.md',
    )
    .action(async (o: ImageCompareFlags, c: Command) => {
      checkOutputs(o.out, o.doc);
      const nfes = o.nfes.map(Number);
      const { net, config: fc } = image.loadFeatureNet(o.features);
      const train = image.imagesOrFashion(undefined, 'train', { levels: o.levels, limit: o.limit });
      const test = image.imagesOrFashion(undefined, 'test', { levels: o.levels });
      const task = new image.ImageTask(train.set, test.set, { evalSize: 256 });
      const command = reproduceLine(c, { ...o }, ['--features']);
      const runs = await image.runImageComparison(
        task,
        {
          out: o.out,
          size: o.size,
          steps: o.steps,
          seeds: o.seeds.map(Number),
          models: o.models,
          nfes,
          sampler: o.sampler,
          maskedTopP: o.maskedTopP,
          n: o.n,
          features: {
            net,
            path: o.features === image.SHIPPED_FEATURES ? 'models/fashion-features' : o.features,
            accuracy: fc.testAccuracy,
          },
          train: train.set,
          test: test.set,
          doc: o.doc,
          command,
        },
        logHooks,
      );
      reportDone(o.doc, runs !== null);
    });
}
