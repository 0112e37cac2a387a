// `sjd train features`: train the image metrics' feature network, a small CNN classifier of
// labelled images (Fashion-MNIST by default), into a folder with its test accuracy; `sjd eval
// image` and `sjd compare image` score samples in its feature space (Fréchet distance, KID).
import type { Command } from 'commander';
import { image, util } from '../../index.js';
import { DEFAULT_HOLD_OUT } from '../../tasks/common/hold-out.js';
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

/**
 * The labelled images the feature network trains on (--data, else Fashion-MNIST train) and those
 * its accuracy is measured on: --eval-data, else a tenth of --data held out
 * (tasks/common/hold-out.ts), else Fashion-MNIST test. An unlabelled set is refused saying what would do.
 */
function labelledSets(o: TrainFeaturesOpts): { train: image.Sourced; test: image.Sourced } {
  const all = image.imagesOrFashion(o.data, 'train');
  if (!all.set.labels)
    throw new Error(
      `${all.source}: unlabelled images; the feature network is a classifier and trains on labelled ones: make the set from a folder with a subfolder for each class (photos/cats, photos/dogs), or score with --features of a network trained on a labelled set of the same size`,
    );
  if (o.data === undefined || o.evalData !== undefined)
    return { train: all, test: image.imagesOrFashion(o.evalData, 'test') };
  const split = image.holdOutImages(all.set, DEFAULT_HOLD_OUT, all.source);
  return {
    train: { set: split.train, source: all.source },
    test: { set: split.held, source: `${all.source} (${DEFAULT_HOLD_OUT} held out)` },
  };
}

function trainFeatures(o: TrainFeaturesOpts): void {
  const { train, test } = labelledSets(o);
  util.claimOutDir(o.out, image.FEATURE_FOLDER, o.force === true);
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
      'labelled test images for its accuracy (default: a tenth of --data, or Fashion-MNIST test)',
    )
    .option('--steps <n>', 'training steps', int(1, 10_000_000), 2000)
    .option('--batch <n>', 'images a step', int(1, 100_000), 128)
    .option('--lr <x>', 'peak learning rate', num(1e-8, 10), 3e-3)
    .option('--seed <n>', 'random seed', seed, 0)
    .option('--force', 'replace --out when it is not a feature network folder sjd wrote')
    .action(trainFeatures);
}
