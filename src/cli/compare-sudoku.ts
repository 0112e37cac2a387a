// `sjd compare sudoku`: hybrid (CADD, W = I) against sjd (the constraint-graph W) on the same
// network, budget and seeds, resumable; the final solve rates under the adaptive sampler and the
// paper's confidence policy, takeoff and collapsed seeds (tasks/sudoku/compare.ts).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { sudoku } from '../index.js';
import {
  type ComparisonFlags,
  checkOutputs,
  logHooks,
  markdownFile,
  modelList,
  modelsOption,
  reportDone,
  runsOptions,
  seedList,
} from './compare-options.js';
import { int, nfe, sudokuNetworkOptions } from './options.js';
import { reproduceLine } from './reproduce.js';

interface CompareFlags extends ComparisonFlags {
  evalEvery?: number;
  processes?: string[]; // the earlier spelling of --models
  limit: number;
  nfe: number;
  adaptiveNfe: number;
  attention?: 'dense' | 'peers' | 'typed';
  augment?: 'none' | 'digits' | 'full';
  loops?: number;
  data?: string;
  evalData?: string;
}

export function registerCompareSudoku(cmd: Command): void {
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
}
