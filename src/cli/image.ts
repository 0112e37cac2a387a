// `sjd sample image`: draw images from a trained image model into a PNG grid (and with --trace a
// strip of the first samples at several times of the reverse process: pixels sticking). The
// output file is claimed before any sampling (--force to replace it) and written atomically.
import type { Command } from 'commander';
import { image, sampling, train, util } from '../index.js';
import { group, int, nfe, num, samplerOption } from './options.js';

interface SampleImageOpts {
  model: string;
  out: string;
  n: number;
  nfe: number;
  temperature: number;
  seed: number;
  sampler?: string;
  cols?: number;
  trace?: string;
  frames: number;
  force?: boolean;
}

/** A trained image model (run folder or exported) with its geometry. */
export function loadImageModel(dir: string) {
  const r = train.loadModel(
    dir,
    (c) => {
      if (!c.image) throw new Error(`${dir}: not an image model (no image geometry in its config)`);
      return image.imageShape(c.image);
    },
    'image',
  );
  return { ...r, geometry: r.config.image! };
}

export function registerImage(program: Command): void {
  samplerOption(
    group(program, 'sample', 'draw samples from a model')
      .command('image')
      .description(
        'sample images into a PNG grid (Alg. 2 on a cosine grid; MDLM for masked models)',
      ),
    '--sampler',
    'sampler (default: mdlm for masked models, else sjd)',
  )
    .requiredOption('--model <dir>', 'an image run folder or exported image model')
    .requiredOption('--out <file>', 'the PNG grid to write')
    .option('-n, --n <n>', 'number of images', int(1, 100_000), 16)
    .option('--nfe <n>', 'model evaluations', nfe, 64)
    .option('--temperature <t>', 'sampling temperature', num(1e-6, 100), 1)
    .option('--seed <n>', 'sampling seed', int(0, 2 ** 31 - 1), 0)
    .option('--cols <n>', 'grid columns (default: about the square root of n)', int(1, 10_000))
    .option('--trace <file>', 'also write a PNG of the first samples at several times')
    .option('--frames <n>', 'times shown in the trace', int(2, 64), 8)
    .option('--force', 'replace existing output files')
    .action((o: SampleImageOpts) => {
      util.claimOutFile(o.out, o.force === true);
      if (o.trace) util.claimOutFile(o.trace, o.force === true);
      const { model, process: proc, geometry: g } = loadImageModel(o.model);
      const t0 = performance.now();
      const r = image.sampleImages(model, proc, g, { ...o, record: o.trace !== undefined });
      const s = (performance.now() - t0) / 1000;
      util.writeFileAtomic(o.out, image.gridPng(r.images, o.n, g, { cols: o.cols }));
      if (o.trace)
        util.writeFileAtomic(
          o.trace,
          image.tracePng(r.trajectory!, Math.min(o.n, 8), g, { frames: o.frames }),
        );
      console.log(
        `wrote ${o.out}${o.trace ? ` and ${o.trace}` : ''}: ${o.n} images of ${image.describeGeometry(g)}, ${o.sampler ?? sampling.defaultSampler(proc)} sampler, ${r.nfe} NFE, temperature ${o.temperature}; ${(o.n / s).toFixed(2)} images/s`,
      );
    });
}
