// `sjd eval image`: score samples of a trained image model (the shipped one unless --model) in
// the feature network's space: Fréchet distance and KID against training images, beside the
// floor (the test set) and the ceiling (pixel marginals); label entropy, class coverage, speckle
// and the share of sites the last step committed; --json ends with one line of the results.
import type { Command } from 'commander';
import { image, precisionOf } from '../../index.js';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import {
  group,
  int,
  nfeOption,
  samplerOption,
  seedOption,
  temperatureOption,
  topPOption,
} from '../options.js';
import { withPrecisionFlag } from '../precision-flag.js';
import { withProgress } from '../progress.js';
import { MODEL_OPTION } from './model-flag.js';

interface EvalImageOpts {
  precision?: PrecisionSetting;
  model?: string;
  features: string;
  n: number;
  nfe: number;
  temperature: number;
  topP: number;
  seed: number;
  sampler?: SamplerName;
  data?: string;
  evalData?: string;
  json?: boolean;
}

const f3 = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toPrecision(4));

/** The training and test sets the samples are scored against, at the model's geometry. */
function referenceSets(o: EvalImageOpts, g: image.ImageGeometry) {
  const lv = { levels: o.data === undefined ? g.levels : undefined, limit: o.n };
  const train = image.imagesOrFashion(o.data, 'train', lv);
  const test = image.imagesOrFashion(o.evalData, 'test', {
    ...lv,
    levels: o.evalData === undefined ? g.levels : undefined,
  });
  image.checkGeometry(train.set, g, train.source);
  image.checkGeometry(test.set, g, test.source);
  return { train, test };
}

function evalImages(o: EvalImageOpts): void {
  const { net, config: fc } = image.loadFeatureNet(o.features);
  const m = image.loadAnyImageModel(o.model, o.precision);
  const { geometry: g, source } = m;
  if (fc.channels !== g.channels || fc.height !== g.height || fc.width !== g.width)
    throw new Error(
      `${o.features} scores ${fc.height} x ${fc.width} x ${fc.channels} images; the model makes ${image.describeGeometry(g)}: the score needs a feature network for the model's images, which sjd train features --data FILE --out DIR trains on labelled images of that size (then --features DIR)`,
    );
  const { train, test } = referenceSets(o, g);
  const t0 = performance.now();
  const r = withProgress(`sampling ${o.n} images`, o.n, 'images', (progress) =>
    image.sampleAnyImages(m, { ...o, record: true, progress }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.error(`scoring ${o.n} samples, ${o.n} training and ${o.n} test images`);
  const s = withProgress('embedding', image.SCORED_SETS, `sets of ${o.n}`, (progress) =>
    image.scoreImages(net, r.images, o.n, train.set, test.set, o.seed, progress),
  );
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
  const more = {
    speckle,
    speckle_test: speckleTest,
    last_step: lastStep,
    sampler,
    nfe: r.nfe,
    n: o.n,
    precision: precisionOf(m.config.model),
  };
  if (o.json)
    console.log(JSON.stringify({ ...s, ...more, seconds, model: source, features: o.features }));
}

export function registerEval(program: Command): void {
  withPrecisionFlag(
    samplerOption(
      group(program, 'eval', 'evaluate a model')
        .command('image')
        .description(
          "Fréchet distance and KID of samples in the feature network's space, with the floor (test set) and ceiling (pixel marginals); label entropy; class coverage",
        ),
      '--sampler',
      'sampler (default: mdlm for masked models, else sjd)',
    ),
    'image',
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
    .action(evalImages);
}
