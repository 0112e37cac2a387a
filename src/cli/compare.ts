// `sjd compare sudoku` (CADD against SJD) and `sjd compare text` (MDLM, CADD, SJD over the
// sigma_W sweep): same budget and seeds, resumable; write the table and plot into docs/.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { runComparison } from '../tasks/sudoku/compare.js';
import { defaultPairs, SHARED_TEST, SHARED_TRAIN } from '../tasks/sudoku/data.js';
import { SUDOKU_KERNELS, SUDOKU_PRESETS } from '../tasks/sudoku/presets.js';
import { SudokuTask } from '../tasks/sudoku/task.js';
import { parseModelName, runTextComparison } from '../tasks/text/compare.js';
import { EMBEDDED, loadCorpus } from '../tasks/text/corpus.js';
import { SIGMA_SWEEP, TEXT_SIZES } from '../tasks/text/presets.js';
import { TextTask } from '../tasks/text/task.js';
import { group, int, oneOf } from './options.js';

const list = (choices?: string[]) => (v: string) => {
  const items = v.split(',').map((s) => s.trim());
  for (const s of items) {
    if (choices ? !choices.includes(s) : !/^\d+$/.test(s))
      throw new InvalidArgumentError(
        `expected a comma-separated list of ${choices ? choices.join('/') : 'integers'}`,
      );
  }
  return items;
};

interface CompareOpts {
  out: string;
  preset: string;
  steps: number;
  evalEvery?: number;
  seeds: string[];
  kernels: string[];
  limit: number;
  nfe: number;
  doc: string;
  data?: string;
  evalData?: string;
}

interface TextCompareOpts {
  out: string;
  steps: number;
  size: string;
  seeds: string[];
  models: string[];
  n: number;
  data?: string;
  doc: string;
}

export function registerCompare(program: Command): void {
  const cmd = group(program, 'compare', 'compare processes at a matched budget');
  cmd
    .command('sudoku')
    .description(
      'CADD (W = I) against SJD (Sudoku graph): train every kernel x seed (resumable), evaluate, write docs',
    )
    .requiredOption('--out <dir>', 'folder of the runs')
    .requiredOption('--steps <n>', 'training steps per run', int(1, 10_000_000))
    .option(
      '--preset <name>',
      'model and optimiser preset',
      oneOf(Object.keys(SUDOKU_PRESETS)),
      'cpu',
    )
    .option(
      '--eval-every <n>',
      "held-out evaluation period in steps (default: the preset's)",
      int(1, 10_000_000),
    )
    .option('--seeds <list>', 'seeds', list(), ['0', '1', '2'])
    .option('--kernels <list>', 'kernels', list(Object.keys(SUDOKU_KERNELS)), [
      'identity',
      'sudoku',
    ])
    .option('--limit <n>', 'held-out puzzles for the final evaluation', int(1, 1_000_000), 1000)
    .option('--nfe <n>', 'NFE of the final evaluation (confidence policy)', int(2, 4096), 32)
    .option(
      '--doc <file>',
      'the Markdown report (the plot goes beside it)',
      'docs/sudoku-comparison.md',
    )
    .option('--data <file>', 'training puzzles (default: ../shared if present, else generated)')
    .option(
      '--eval-data <file>',
      'held-out puzzles (default: ../shared test set if present, else generated)',
    )
    .action(async (o: CompareOpts) => {
      const { pairs: trainSet } = defaultPairs(o.data, SHARED_TRAIN, undefined, {
        n: 20_000,
        seed: 1,
      });
      const { pairs: test, source } = defaultPairs(o.evalData, SHARED_TEST, o.limit, {
        n: o.limit,
        seed: 2,
      });
      const task = new SudokuTask(trainSet, test, {
        evalSize: 200,
        evalNfe: 32,
        evalSampler: 'confidence',
        augment: true,
      });
      const command = `npx sjd compare sudoku --out ${o.out} --steps ${o.steps}${o.evalEvery ? ` --eval-every ${o.evalEvery}` : ''} --preset ${o.preset} --seeds ${o.seeds.join(',')} --kernels ${o.kernels.join(',')} --limit ${o.limit} --nfe ${o.nfe} --doc ${o.doc}`;
      console.error(
        `sjd compare sudoku: evaluating on ${test.puzzles.length} puzzles from ${source}`,
      );
      const runs = await runComparison(
        task,
        {
          out: o.out,
          preset: o.preset,
          steps: o.steps,
          evalEvery: o.evalEvery,
          seeds: o.seeds.map(Number),
          kernels: o.kernels,
          test,
          nfe: o.nfe,
          doc: o.doc,
          command,
        },
        { log: (l) => console.error(l) },
      );
      if (runs.length < o.seeds.length * o.kernels.length) {
        console.log('interrupted; run the same command again to continue');
        process.exitCode = 130;
        return;
      }
      console.log(`wrote ${o.doc}`);
    });

  cmd
    .command('text')
    .description(
      'MDLM, CADD and SJD (sigma_W sweep): train every model x seed (resumable), trace frontiers, write docs',
    )
    .requiredOption('--out <dir>', 'folder of the runs')
    .requiredOption('--steps <n>', 'training steps per run', int(1, 10_000_000))
    .option('--size <name>', 'model and optimiser size', oneOf(Object.keys(TEXT_SIZES)), 'cpu')
    .option('--seeds <list>', 'seeds', list(), ['0'])
    .option(
      '--models <list>',
      'models: mdlm, cadd, sjd-SIGMA',
      (v: string) => {
        const items = v.split(',').map((x) => x.trim());
        for (const m of items) {
          try {
            parseModelName(m);
          } catch (e) {
            throw new InvalidArgumentError((e as Error).message);
          }
        }
        return items;
      },
      ['mdlm', 'cadd', ...SIGMA_SWEEP.map((s) => `sjd-${s}`)],
    )
    .option('-n, --n <n>', 'samples per frontier point', int(1, 100_000), 32)
    .option('--data <dir>', `corpus folder from \`sjd data text8\` (default: ${EMBEDDED})`)
    .option(
      '--doc <file>',
      'the Markdown report (plot and JSON beside it)',
      'docs/text-comparison.md',
    )
    .action(async (o: TextCompareOpts) => {
      const corpus = loadCorpus(o.data);
      const size = TEXT_SIZES[o.size]!;
      const task = new TextTask(corpus, {
        length: size.length,
        evalWindows: 64,
        evalSamples: 16,
        evalNfe: 32,
        evalTemperature: 1,
      });
      const command = `npx sjd compare text --out ${o.out} --steps ${o.steps} --size ${o.size} --seeds ${o.seeds.join(',')} --models ${o.models.join(',')} -n ${o.n}${o.data ? ` --data ${o.data}` : ''} --doc ${o.doc}`;
      const runs = await runTextComparison(
        task,
        {
          out: o.out,
          size: o.size,
          steps: o.steps,
          seeds: o.seeds.map(Number),
          models: o.models,
          n: o.n,
          doc: o.doc,
          command,
        },
        { log: (l) => console.error(l) },
      );
      if (!runs) {
        console.log('interrupted; run the same command again to continue');
        process.exitCode = 130;
        return;
      }
      console.log(`wrote ${o.doc}`);
    });
}
