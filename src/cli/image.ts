// `sjd sample image`: draw images from a trained image model into a PNG grid (and with --trace a
// strip of the first samples at several times of the reverse process: pixels sticking). The
// output file is claimed before any sampling (--force to replace it) and written atomically.
import type { Command } from 'commander';
import { image, util } from '../index.js';
import {
  group,
  int,
  nfeOption,
  num,
  samplerOption,
  seedOption,
  temperatureOption,
  topPOption,
} from './options.js';
import { withProgress } from './progress.js';

/** --model of the image commands: a run or exported model, else the shipped one. */
const MODEL_OPTION = [
  '--model <dir>',
  'an image run folder or exported image model (default: the shipped one)',
] as const;

interface SampleImageOpts {
  model?: string;
  out: string;
  n: number;
  nfe: number;
  temperature: number;
  topP: number;
  seed: number;
  sampler?: string;
  cols?: number;
  trace?: string;
  frames: number;
  force?: boolean;
}

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

interface EvalImageOpts {
  model?: string;
  features: string;
  n: number;
  nfe: number;
  temperature: number;
  topP: number;
  seed: number;
  sampler?: string;
  data?: string;
  evalData?: string;
  json?: boolean;
}

const f3 = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toPrecision(4));

export function registerImage(program: Command): void {
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
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
    .option('--force', 'replace --out when it is not a feature network folder sjd wrote')
    .action((o: TrainFeaturesOpts) => {
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
    });

  samplerOption(
    group(program, 'eval', 'evaluate a model')
      .command('image')
      .description(
        "Fréchet distance and KID of samples in the feature network's space, with the floor (test set) and ceiling (pixel marginals); label entropy; class coverage",
      ),
    '--sampler',
    'sampler (default: mdlm for masked models, else sjd)',
  )
    .option(...MODEL_OPTION)
    .option(
      '--features <dir>',
      'the feature network (default: the shipped one)',
      image.SHIPPED_FEATURES,
    )
    .option(
      '-n, --n <n>',
      'images per set (samples, training, test, marginals)',
      int(20, 100_000),
      1000,
    )
    .option(...nfeOption('image'))
    .option(...temperatureOption('image'))
    .option(...topPOption('image'))
    .option(...seedOption)
    .option(
      '--data <file>',
      "the reference (training) images (default: Fashion-MNIST train at the model's levels)",
    )
    .option('--eval-data <file>', 'the floor (test) images (default: Fashion-MNIST test)')
    .option('--json', 'end with one JSON line of the results')
    .action((o: EvalImageOpts) => {
      const { net, config: fc } = image.loadFeatureNet(o.features);
      const m = image.loadAnyImageModel(o.model);
      const { geometry: g, source } = m;
      if (fc.channels !== g.channels || fc.height !== g.height || fc.width !== g.width)
        throw new Error(
          `${o.features} scores ${fc.height} x ${fc.width} x ${fc.channels} images; the model makes ${image.describeGeometry(g)}`,
        );
      const lv = { levels: o.data === undefined ? g.levels : undefined, limit: o.n };
      const train = image.imagesOrFashion(o.data, 'train', lv);
      const test = image.imagesOrFashion(o.evalData, 'test', {
        ...lv,
        levels: o.evalData === undefined ? g.levels : undefined,
      });
      image.checkGeometry(train.set, g, train.source);
      image.checkGeometry(test.set, g, test.source);
      const t0 = performance.now();
      const r = withProgress(`sampling ${o.n} images`, o.n, 'images', (progress) =>
        image.sampleAnyImages(m, { ...o, record: true, progress }),
      );
      const seconds = (performance.now() - t0) / 1000;
      console.error(`scoring ${o.n} samples, ${o.n} training and ${o.n} test images`);
      const s = image.scoreImages(net, r.images, o.n, train.set, test.set, o.seed);
      const speckle = image.speckleFraction(r.images, o.n, g);
      const speckleTest = image.speckleFraction(test.set.images, test.set.n, g);
      const lastStep = image.lastStepShare(r.trajectory ?? []);
      const sampler = image.imageSamplerOf(m, o);
      console.log(
        `${o.n} samples (${sampler} sampler, ${r.nfe} NFE, temperature ${o.temperature}; ${(o.n / seconds).toFixed(2)} images/s) against ${o.n} of ${train.source}, in the space of ${o.features} (test accuracy ${(100 * fc.testAccuracy).toFixed(1)}%):`,
      );
      for (const [name, d] of [
        ['samples', s.samples],
        ['floor (test set)', s.floor],
        ['ceiling (pixel marginals)', s.ceiling],
      ] as const)
        console.log(`  ${name}: FD ${f3(d.fd)}, KID ${f3(d.kid)}`);
      console.log(
        `  label entropy ${s.label_entropy.toFixed(3)} nats; score ${s.score.toFixed(2)}; class coverage ${s.coverage.map((c) => (100 * c).toFixed(0)).join('/')}%`,
      );
      console.log(
        `  speckle ${(100 * speckle).toFixed(2)}% of pixel values off their neighbours' median by more than a quarter of the range (test images ${(100 * speckleTest).toFixed(2)}%); the last step committed ${(100 * lastStep).toFixed(1)}% of the first batch's sites`,
      );
      if (o.json)
        console.log(
          JSON.stringify({
            ...s,
            speckle,
            speckle_test: speckleTest,
            last_step: lastStep,
            sampler,
            nfe: r.nfe,
            seconds,
            model: source,
            features: o.features,
          }),
        );
    });

  samplerOption(
    group(program, 'sample', 'draw samples from a model')
      .command('image')
      .description(
        'sample images into a PNG grid (Alg. 2 on a cosine grid; MDLM for masked models)',
      ),
    '--sampler',
    'sampler (default: mdlm for masked models, else sjd; ddpm and bitdiff models: their own)',
  )
    .option(...MODEL_OPTION)
    .option('--out <file>', 'the PNG grid to write', image.SAMPLE_GRID_FILE)
    .option('-n, --n <n>', 'number of images', int(1, 100_000), 16)
    .option(...nfeOption('image'))
    .option(...temperatureOption('image'))
    .option(...topPOption('image'))
    .option(...seedOption)
    .option('--cols <n>', 'grid columns (default: about the square root of n)', int(1, 10_000))
    .option('--trace <file>', 'also write a PNG of the first samples at several times')
    .option('--frames <n>', 'times shown in the trace', int(2, 64), 8)
    .option('--force', 'replace existing output files')
    .action((o: SampleImageOpts) => {
      util.distinctOutputs({ '--out': o.out, '--trace': o.trace });
      util.claimOutFile(o.out, o.force === true);
      if (o.trace) util.claimOutFile(o.trace, o.force === true, { flag: '--trace' });
      const m = image.loadAnyImageModel(o.model);
      const g = m.geometry;
      const t0 = performance.now();
      const r = withProgress(`sampling ${o.n} images`, o.n, 'images', (progress) =>
        image.sampleAnyImages(m, { ...o, record: o.trace !== undefined, progress }),
      );
      const s = (performance.now() - t0) / 1000;
      util.writeFileAtomic(o.out, image.gridPng(r.images, o.n, g, { cols: o.cols }));
      if (o.trace)
        util.writeFileAtomic(
          o.trace,
          image.tracePng(r.trajectory!, Math.min(o.n, 8), g, { frames: o.frames }),
        );
      console.log(
        `wrote ${o.out}${o.trace ? ` and ${o.trace}` : ''}: ${o.n} images of ${image.describeGeometry(g)}, ${image.imageSamplerOf(m, o)} sampler, ${r.nfe} NFE, temperature ${o.temperature}; ${(o.n / s).toFixed(2)} images/s`,
      );
    });
}
