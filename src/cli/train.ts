// `sjd train sudoku`, `sjd train text` and `sjd train image`: train a denoiser into a run folder
// (config, manifest, checkpoints, metrics.csv, metrics.svg) with a progress bar; --resume
// continues exactly. Each takes the same run and process flags and the same body (train-run.ts)
// and checks --out before loading any data; what is here is what each task builds from its flags.
import type { Command } from 'commander';
import { image, process as P, sudoku, text } from '../index.js';
import {
  group,
  int,
  levels,
  nfe,
  oneOf,
  type ProcessFlags,
  processOptions,
  samplerOption,
  sudokuNetworkOptions,
} from './options.js';
import { processOf, type RunFlags, runOptions, trainAction } from './train-run.js';

interface SudokuFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalData?: string;
  evalSize: number;
  evalNfe: number;
  evalSampler: string;
  augment?: sudoku.Augment;
  attention?: 'dense' | 'peers' | 'typed';
  loops?: number;
  anchors: 'learned' | 'frozen';
}

interface ImageFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalData?: string;
  levels?: number;
  limit?: number;
  evalSize: number;
}

interface TextFlags extends ProcessFlags, RunFlags {
  data?: string;
  evalSamples: number;
  evalNfe: number;
}

export function registerTrain(program: Command): void {
  const cmd = group(program, 'train', 'train a denoiser');
  const sudokuCmd = cmd
    .command('sudoku')
    .description('train a Sudoku denoiser (default: sjd with the constraint-graph W)');
  runOptions(
    processOptions(sudokuCmd, {
      sizes: Object.keys(sudoku.SUDOKU_SIZES),
      ...sudoku.SUDOKU_PROCESS,
    }),
  )
    .option('--data <file>', 'training puzzles, .csv or .npy (default: 20,000 generated here)')
    .option('--eval-data <file>', 'held-out puzzles (default: generated here)')
    .option('--eval-size <n>', 'held-out puzzles per evaluation', int(1, 100_000), 200)
    .option('--eval-nfe <n>', 'NFE budget of the evaluation sampler', nfe, 32);
  sudokuNetworkOptions(
    samplerOption(sudokuCmd, '--eval-sampler', 'evaluation sampler', 'confidence'),
  )
    .option(
      '--anchors <mode>',
      'learned (CDCD-normalised) or frozen random anchors',
      oneOf(['learned', 'frozen']),
      'learned',
    )
    .action(
      trainAction('sudoku', (o: SudokuFlags, saved) => {
        const config =
          saved ??
          sudoku.sudokuConfig({
            ...processOf(o),
            seed: o.seed,
            steps: o.steps,
            anchors: o.anchors,
            attention: o.attention,
            loops: o.loops,
            augment: o.augment,
          });
        const { pairs: trainSet, source } = sudoku.pairsOrGenerated(o.data, undefined, {
          n: 20_000,
          seed: 1,
        });
        const { pairs: held, source: heldSource } = sudoku.pairsOrGenerated(
          o.evalData,
          o.evalSize,
          {
            n: o.evalSize,
            seed: 2,
          },
        );
        const task = new sudoku.SudokuTask(trainSet, held, {
          evalSize: o.evalSize,
          evalNfe: o.evalNfe,
          evalSampler: o.evalSampler,
          augment: config.augment ?? 'digits',
        });
        const about = `${trainSet.puzzles.length} training puzzles from ${source}; evaluating on ${held.puzzles.length} from ${heldSource}`;
        return { config, task, about };
      }),
    );

  const textCmd = cmd
    .command('text')
    .description('train a text8-style character denoiser (default: sjd with the 1-D Gaussian W)');
  runOptions(processOptions(textCmd, { sizes: Object.keys(text.TEXT_SIZES), ...text.TEXT_PROCESS }))
    .option('--data <dir>', 'corpus folder from `sjd data text8` (default: the embedded corpus)')
    .option('--eval-samples <n>', 'samples scored at each evaluation', int(1, 100_000), 16)
    .option('--eval-nfe <n>', 'NFE of the evaluation samples', nfe, 32)
    .action(
      trainAction('text', (o: TextFlags, saved) => {
        const config = saved ?? {
          ...text.textConfig({ ...processOf(o), seed: o.seed, steps: o.steps }),
          data: o.data ?? text.EMBEDDED,
        };
        const corpus = text.loadCorpus(o.data ?? config.data);
        const task = new text.TextTask(corpus, {
          length: config.length ?? 0,
          evalWindows: 64,
          evalSamples: o.evalSamples,
          evalNfe: o.evalNfe,
          evalTemperature: 1,
        });
        const about = `${corpus.train.length} training characters from ${corpus.source}; ${P.describeProcess(config.process)}`;
        return { config, task, about };
      }),
    );
  registerTrainImage(cmd);
}

function registerTrainImage(cmd: Command): void {
  const imageCmd = cmd
    .command('image')
    .description(
      'train an image denoiser, a U-Net (default: sjd with the pixel-grid blur, sigma_B 2.5)',
    );
  runOptions(
    processOptions(imageCmd, { sizes: Object.keys(image.IMAGE_SIZES), ...image.IMAGE_PROCESS }),
  )
    .option(
      '--data <file>',
      'training images from `sjd data images` (default: Fashion-MNIST train)',
    )
    .option('--eval-data <file>', 'held-out images (default: Fashion-MNIST test)')
    .option(
      '--levels <n>',
      'Fashion-MNIST grey levels, a power of two from 2 to 256 (default 256)',
      levels,
    )
    .option('--limit <n>', 'only the first N training images', int(1, 100_000_000))
    .option('--eval-size <n>', 'held-out images for the evaluation loss', int(1, 100_000), 256)
    .action(
      trainAction('image', (o: ImageFlags, saved) => {
        const lv = o.levels ?? (o.data === undefined ? saved?.image?.levels : undefined);
        const train = image.imagesOrFashion(o.data, 'train', { levels: lv, limit: o.limit });
        const held = image.imagesOrFashion(o.evalData, 'test', {
          levels: o.evalData === undefined ? train.set.levels : undefined,
          limit: o.evalSize,
        });
        const config =
          saved ??
          image.imageConfig(image.geometryOf(train.set), {
            ...processOf(o),
            seed: o.seed,
            steps: o.steps,
          });
        if (!config.image)
          throw new Error(`${o.out}: not an image run (no image geometry in its config)`);
        image.checkGeometry(train.set, config.image, train.source);
        const task = new image.ImageTask(train.set, held.set, { evalSize: o.evalSize });
        const about = `${train.set.n} training images from ${train.source} (${image.describeGeometry(config.image)}); evaluating on ${held.set.n} from ${held.source}; ${P.describeProcess(config.process)}`;
        return { config, task, about };
      }),
    );
}
