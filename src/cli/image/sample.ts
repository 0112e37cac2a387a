// `sjd sample image`: draw images from a trained image model into a PNG grid (and with --trace a
// strip of the first samples at several times of the reverse process: pixels sticking). The
// output file is claimed before any sampling (--force to replace it) and written atomically.
import type { Command } from 'commander';
import { image, util } from '../../index.js';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import {
  group,
  int,
  nfeOption,
  pngFile,
  samplerOption,
  seedOption,
  temperatureOption,
  topPOption,
} from '../options.js';
import { withPrecisionFlag } from '../precision-flag.js';
import { withProgress } from '../progress.js';
import { MODEL_OPTION } from './model-flag.js';

interface SampleImageOpts {
  model?: string;
  out: string;
  n: number;
  nfe: number;
  temperature: number;
  topP: number;
  seed: number;
  sampler?: SamplerName;
  cols?: number;
  trace?: string;
  frames: number;
  force?: boolean;
  precision?: PrecisionSetting;
}

function sampleImages(o: SampleImageOpts): void {
  util.distinctOutputs({ '--out': o.out, '--trace': o.trace });
  util.claimOutFile(o.out, o.force === true);
  if (o.trace) util.claimOutFile(o.trace, o.force === true, { flag: '--trace' });
  const m = image.loadAnyImageModel(o.model, o.precision);
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
    `wrote ${o.out}${o.trace ? ` and ${o.trace}` : ''}: ${util.counted(o.n, 'image')} of ${image.describeGeometry(g)}, ${image.imageSamplerOf(m, o)} sampler, ${r.nfe} NFE, temperature ${o.temperature}; ${(o.n / s).toFixed(2)} images/s`,
  );
}

export function registerSample(program: Command): void {
  withPrecisionFlag(
    samplerOption(
      group(program, 'sample', 'draw samples from a model')
        .command('image')
        .description(
          'sample images into a PNG grid (Alg. 2 on a cosine grid; MDLM for masked models)',
        ),
      '--sampler',
      'sampler (default: mdlm for masked models, else sjd; ddpm and bitdiff models: their own)',
    ),
    'image',
  )
    .option(...MODEL_OPTION)
    .option('--out <file>', 'the PNG grid to write', pngFile, image.SAMPLE_GRID_FILE)
    .option('-n, --n <n>', 'number of images', int(1, 100_000), 16)
    .option(...nfeOption('image'))
    .option(...temperatureOption('image'))
    .option(...topPOption('image'))
    .option(...seedOption)
    .option('--cols <n>', 'grid columns (default: about the square root of n)', int(1, 10_000))
    .option('--trace <file>', 'also write a PNG of the first samples at several times', pngFile)
    .option('--frames <n>', 'times shown in the trace', int(2, 64), 8)
    .option('--force', 'replace existing output files')
    .action(sampleImages);
}
