// `sjd compare sudoku` (hybrid/CADD against sjd), `sjd compare image` and `sjd compare text`
// (masked/MDLM, hybrid/CADD, sjd over sigma_W or sigma_B): same budget and seeds, resumable;
// write the table and plot into docs/. Every comparison names its models with one grammar
// (`--models`, process/choice.ts's parseProcessName; Sudoku's earlier `--processes` still read).
// Output paths are checked before any training.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { image, process as P, sampling, sudoku, text, util } from '../index.js';
import { group, int, levels, nfe, num, oneOf, sudokuNetworkOptions } from './options.js';
import { reproduceLine } from './reproduce.js';

const list = (check: (item: string) => void, what: string) => (v: string) => {
  const items = v.split(',').map((s) => s.trim());
  for (const s of items) {
    try {
      check(s);
    } catch (e) {
      throw new InvalidArgumentError(`${what}: ${(e as Error).message}`);
    }
  }
  return items;
};

const modelList = (v: string) =>
  list(
    P.parseProcessName,
    'expected a comma-separated list of models',
  )(v).map(P.canonicalProcessName);

/** `--models`: the comparison's processes by name, one grammar for every task. */
function modelsOption(cmd: Command, help: string, defaults: string[]): Command {
  return cmd.option(
    '--models <list>',
    `models: ${P.PRESETS.join(', ')} (mdlm and cadd read as masked and hybrid), ${help}`,
    modelList,
    defaults,
  );
}

const seedList = list((s) => {
  if (!/^\d+$/.test(s) || Number(s) > 2 ** 31 - 1) throw new Error(`'${s}' is not a seed`);
}, 'expected a comma-separated list of seeds');

interface CompareFlags {
  out: string;
  size: string;
  steps: number;
  evalEvery?: number;
  seeds: string[];
  models: string[];
  processes?: string[]; // the earlier spelling of --models
  limit: number;
  nfe: number;
  adaptiveNfe: number;
  attention?: 'dense' | 'peers' | 'typed';
  augment?: 'none' | 'digits' | 'full';
  loops?: number;
  doc: string;
  data?: string;
  evalData?: string;
}

interface ImageCompareFlags {
  out: string;
  steps: number;
  size: string;
  seeds: string[];
  models: string[];
  nfes: number[];
  sampler: string;
  maskedTopP: number;
  n: number;
  levels: number;
  limit?: number;
  features: string;
  doc: string;
}

interface TextCompareFlags {
  out: string;
  steps: number;
  size: string;
  seeds: string[];
  models: string[];
  samplers: string[];
  n: number;
  data?: string;
  doc: string;
}

/** The options of every comparison: the runs' folder, training steps per run and the size. */
function runsOptions(cmd: Command, sizes: string[]): Command {
  return cmd
    .requiredOption('--out <dir>', 'folder of the runs')
    .requiredOption('--steps <n>', 'training steps per run', int(1, 1_000_000_000))
    .option('--size <name>', 'model and optimiser size', oneOf(sizes), 'cpu');
}

/** Training and scoring progress goes to stderr. */
const logHooks = { log: (l: string) => console.error(l) };

/** The end of a comparison: the report's path, or how to continue an interrupted one (exit 130). */
function reportDone(doc: string, complete: boolean): void {
  if (!complete) {
    console.log('interrupted; run the same command again to continue');
    process.exitCode = 130;
    return;
  }
  console.log(`wrote ${doc}`);
}

/**
 * The report: a Markdown file, so that what goes beside it (the plot, JSON, grids: its name with
 * .md replaced) never names the report itself.
 */
function markdownFile(value: string): string {
  if (!value.endsWith('.md')) throw new InvalidArgumentError('expected a Markdown file (.md)');
  return value;
}

/** The comparison folder and the report must be writable, and apart, before hours of training. */
function checkOutputs(out: string, doc: string): void {
  util.distinctOutputs({ '--out': out, '--doc': doc });
  util.checkWritable(out);
  util.checkWritable(doc);
}

/** A comparison's command: its runs' options, seeds (default one) and models. */
function comparison(
  cmd: Command,
  description: string,
  sizes: string[],
  modelsHelp: string,
  models: string[],
): Command {
  return modelsOption(
    runsOptions(cmd.description(description), sizes).option('--seeds <list>', 'seeds', seedList, [
      '0',
    ]),
    modelsHelp,
    models,
  );
}

export function registerCompare(program: Command): void {
  const cmd = group(program, 'compare', 'compare processes at a matched budget');
  modelsOption(
    sudokuNetworkOptions(
      runsOptions(
        cmd
          .command('sudoku')
          .description(
            'hybrid (CADD, W = I) against sjd (the constraint-graph W): train every model x seed (resumable), evaluate, write docs',
          ),
        Object.keys(sudoku.SUDOKU_SIZES),
      ),
    )
      .option(
        '--eval-every <n>',
        "held-out evaluation period in steps (default: the size's)",
        int(1, 1_000_000_000),
      )
      .option('--seeds <list>', 'seeds', seedList, ['0', '1', '2']),
    'sjd-SIGMA (the constraint-graph W at sigma_W SIGMA)',
    ['hybrid', 'sjd'],
  )
    .addOption(
      new Option('--processes <list>', 'the earlier name of --models')
        .argParser(modelList)
        .hideHelp(),
    )
    .option('--limit <n>', 'held-out puzzles for the final evaluation', int(1, 1_000_000), 1000)
    .option('--nfe <n>', "NFE of the final evaluation by the paper's confidence policy", nfe, 32)
    .option('--adaptive-nfe <n>', "the adaptive sampler's NFE cap in the final evaluation", nfe, 64)
    .option(
      '--doc <file>',
      'the Markdown report (the plot goes beside it)',
      markdownFile,
      'docs/sudoku-comparison.md',
    )
    .option('--data <file>', 'training puzzles (default: 20,000 generated here)')
    .option('--eval-data <file>', 'held-out puzzles (default: generated here)')
    .action(async (o: CompareFlags, c: Command) => {
      if (o.processes && c.getOptionValueSource('models') === 'cli')
        throw new InvalidArgumentError('give --models or its earlier name --processes, not both');
      if (o.processes) o.models = o.processes;
      checkOutputs(o.out, o.doc);
      const { pairs: trainSet } = sudoku.pairsOrGenerated(o.data, undefined, {
        n: 20_000,
        seed: 1,
      });
      const { pairs: test, source } = sudoku.pairsOrGenerated(o.evalData, o.limit, {
        n: o.limit,
        seed: 2,
      });
      const task = new sudoku.SudokuTask(trainSet, test, {
        evalSize: 200,
        evalNfe: 32,
        evalSampler: 'confidence',
        augment: sudoku.sudokuConfig({ size: o.size, augment: o.augment }).augment ?? 'digits',
      });
      const command = reproduceLine(c, { ...o });
      console.error(
        `sjd compare sudoku: evaluating on ${test.puzzles.length} puzzles from ${source}`,
      );
      const runs = await sudoku.runComparison(
        task,
        {
          out: o.out,
          size: o.size,
          steps: o.steps,
          evalEvery: o.evalEvery,
          seeds: o.seeds.map(Number),
          models: o.models,
          attention: o.attention,
          augment: o.augment,
          loops: o.loops,
          test,
          nfe: o.nfe,
          adaptiveNfe: o.adaptiveNfe,
          doc: o.doc,
          command,
        },
        logHooks,
      );
      reportDone(o.doc, runs.length === o.seeds.length * o.models.length);
    });

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

  comparison(
    cmd.command('text'),
    'masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep: train every model x seed (resumable), trace frontiers, write docs',
    Object.keys(text.TEXT_SIZES),
    'sjd-SIGMA (the default W, row-normalised), sjd-row-SIGMA (the same), sjd-add-SIGMA (W_ii = 1)',
    ['masked', 'hybrid', ...text.SIGMA_SWEEP.map((s) => `sjd-${s}`)],
  )
    .option(
      '--samplers <list>',
      'samplers of the hybrid and sjd models, the first one in the verdicts (masked models: mdlm)',
      list(gaussianSampler, 'expected a comma-separated list of samplers'),
      ['ancestral', 'sjd'],
    )
    .option('-n, --n <n>', 'samples per frontier point', int(1, 100_000), 64)
    .option('--data <dir>', `corpus folder from \`sjd data text8\` (default: ${text.EMBEDDED})`)
    .option(
      '--doc <file>',
      'the Markdown report (plot and JSON beside it)',
      markdownFile,
      'docs/text-comparison.md',
    )
    .action(async (o: TextCompareFlags, c: Command) => {
      checkOutputs(o.out, o.doc);
      const corpus = text.loadCorpus(o.data);
      const size = text.TEXT_SIZES[o.size]!;
      const task = new text.TextTask(corpus, {
        length: size.length,
        evalWindows: 64,
        evalSamples: 16,
        evalNfe: 32,
        evalTemperature: 1,
      });
      const command = reproduceLine(c, { ...o });
      const runs = await text.runTextComparison(
        task,
        {
          out: o.out,
          size: o.size,
          steps: o.steps,
          seeds: o.seeds.map(Number),
          models: o.models,
          samplers: o.samplers,
          n: o.n,
          doc: o.doc,
          command,
        },
        logHooks,
      );
      reportDone(o.doc, runs !== null);
    });
}

/** A grid sampler that runs the hybrid and sjd models (by name; one line naming the known ones). */
function gaussianSampler(name: string): string {
  const s = sampling.getSampler(name);
  if (s.maskedOnly || s.kind === 'adaptive')
    throw new Error(
      `sampler '${name}' does not trace text frontiers (it is ${s.maskedOnly ? "the masked models'" : 'adaptive'})`,
    );
  return name;
}
