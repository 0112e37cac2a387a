// `sjd train TASK`, one subcommand for every task of the registry (tasks/registry.ts): train a
// denoiser into a run folder (config, manifest, checkpoints, metrics.csv, metrics.svg) with a
// progress bar; --resume continues exactly. Each takes the same run and process flags and the
// same body (train-run.ts), checks --out before loading any data, and builds its run with its
// task's spec (train.prepare); what is here is each task's own flags.
import { type Command, InvalidArgumentError } from 'commander';
import {
  image,
  process as P,
  sudoku,
  type TaskSpec,
  type TrainOptions,
  taskSpecs,
  text,
} from '../index.js';
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
import { type RunFlags, runOptions, trainAction } from './train-run.js';

/** A --hazard-weights spec, checked (process/hazard-weights.ts). */
function hazardWeightsArg(v: string): string {
  try {
    P.parseHazardWeights(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
  return v;
}

/** Each shipped task's own flags of `sjd train TASK` (a registered task may have none). */
const TASK_FLAGS: Record<string, (c: Command) => Command> = {
  sudoku: (c) => {
    const d = sudoku.SUDOKU_TRAIN_DEFAULTS;
    c.option('--data <file>', 'training puzzles, .csv or .npy (default: 20,000 generated here)')
      .option('--eval-data <file>', 'held-out puzzles (default: generated here)')
      .option('--eval-size <n>', 'held-out puzzles per evaluation', int(1, 100_000), d.evalSize)
      .option('--eval-nfe <n>', 'NFE budget of the evaluation sampler', nfe, d.evalNfe);
    return sudokuNetworkOptions(
      samplerOption(c, '--eval-sampler', 'evaluation sampler', d.evalSampler, true),
    ).option(
      '--anchors <mode>',
      'learned (CDCD-normalised) or frozen random anchors',
      oneOf(['learned', 'frozen']),
      'learned',
    );
  },
  text: (c) => {
    const d = text.TEXT_TRAIN_DEFAULTS;
    return c
      .option('--data <dir>', 'corpus folder from `sjd data text8` (default: the embedded corpus)')
      .option(
        '--eval-samples <n>',
        'samples scored at each evaluation',
        int(1, 100_000),
        d.evalSamples,
      )
      .option('--eval-nfe <n>', 'NFE of the evaluation samples', nfe, d.evalNfe)
      .option(
        '--hazard-weights <spec>',
        'hybrid, sjd: per-token hazard weights w(a), uniform (the default), freq:GAMMA (w proportional to corpus frequency^GAMMA, sum p0 w = 1; app:e2e-hazard), freq-spread:S or anti-spread:S (the GAMMA that spreads w by S, frequency-keyed or anti-frequency), learned-bounded or learned-uniform-ce (learned through the ELBO, tab:e2e-text8)',
        hazardWeightsArg,
      )
      .option(
        '--objective <name>',
        'hybrid, sjd: the loss, ce (cross-entropy, the default) or elbo (the negative ELBO at eta = 1 without its score term, prop:elbo-eta1)',
        oneOf(['ce', 'elbo']),
      );
  },
  image: (c) =>
    c
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
      .option(
        '--eval-size <n>',
        'held-out images for the evaluation loss',
        int(1, 100_000),
        image.IMAGE_TRAIN_DEFAULTS.evalSize,
      ),
};

/** `sjd train TASK` for one task: the shared flags, the task's own, the shared body. */
function registerTrainTask(cmd: Command, spec: TaskSpec): void {
  const { description, sizes, defaults } = spec.train;
  const c = cmd.command(spec.name).description(description);
  runOptions(processOptions(c, { sizes: Object.keys(sizes), ...defaults }));
  // commander's options hold the run, process and task flags under their camelCase names; the
  // bandwidth flag is the task's one of --sigma-w and --sigma-b (options.ts)
  (TASK_FLAGS[spec.name] ?? ((x) => x))(c).action(
    trainAction(spec.name, (o: ProcessFlags & RunFlags, saved) =>
      spec.train.prepare(
        {
          ...(o as unknown as TrainOptions),
          bandwidth: o.sigmaB ?? o.sigmaW,
          log: (line) => console.error(`sjd train ${spec.name}: ${line}`),
        },
        saved,
      ),
    ),
  );
}

export function registerTrain(program: Command): void {
  const cmd = group(program, 'train', 'train a denoiser');
  for (const spec of taskSpecs()) registerTrainTask(cmd, spec);
}
