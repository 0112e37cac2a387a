// `sjd train features`: train the image metrics' feature network, a small CNN classifier of
// labelled images (Fashion-MNIST by default), into a folder with its test accuracy; `sjd eval
// image` and `sjd compare image` score samples in its feature space (Fréchet distance, KID).
import type { Command } from 'commander';
import { image, util } from '../../index.js';
import { group, int, num, seed } from '../options.js';

interface TrainFeaturesOpts {
  out: string;
  data?: string;
  evalData?: string;
  steps: number;
  batch: number;
  lr: number;
  seed: number;
  force?: boolean;
}

function trainFeatures(o: TrainFeaturesOpts): void {
  util.claimOutDir(o.out, image.FEATURE_FOLDER, o.force === true);
  const train = image.imagesOrFashion(o.data, 'train');
  const test = image.imagesOrFashion(o.evalData, 'test');
  const t0 = performance.now();
  const net = image.trainFeatureNet(train.set, {
    ...o,
    log: (step, loss) => {
      if (step % 200 === 0 || step === o.steps)
        console.error(`step ${step}/${o.steps} loss ${loss.toFixed(4)}`);
    },
  });
  const acc = image.classifierAccuracy(net, test.set);
  image.saveFeatureNet(
    o.out,
    net,
    { testAccuracy: acc, levels: train.set.levels, steps: o.steps, data: train.source },
    o.force === true,
  );
  console.log(
    `wrote ${o.out}: test accuracy ${(100 * acc).toFixed(2)}% on ${test.set.n} images of ${test.source} (${o.steps} steps, ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
}

export function registerFeatures(program: Command): void {
  group(program, 'train', 'train a denoiser')
    .command('features')
    .description(
      "train the image metrics' feature network, a small CNN classifier (default: Fashion-MNIST)",
    )
    .requiredOption('--out <dir>', 'the folder to write (e.g. models/fashion-features)')
    .option('--data <file>', 'labelled training images (default: Fashion-MNIST train)')
    .option(
      '--eval-data <file>',
      'labelled test images for its accuracy (default: Fashion-MNIST test)',
    )
    .option('--steps <n>', 'training steps', int(1, 10_000_000), 2000)
    .option('--batch <n>', 'images a step', int(1, 100_000), 128)
    .option('--lr <x>', 'peak learning rate', num(1e-8, 10), 3e-3)
    .option('--seed <n>', 'random seed', seed, 0)
    .option('--force', 'replace --out when it is not a feature network folder sjd wrote')
    .action(trainFeatures);
}
