// `sjd compare sudoku`'s own flags: hybrid (CADD, W = I) against sjd (the constraint-graph W) on
// the same network, budget and seeds, resumable; the final solve rates under the adaptive
// sampler and the paper's confidence policy, takeoff and collapsed seeds
// (tasks/sudoku/compare/comparison.ts, run by the Sudoku spec's compare entry). --processes is read as the
// earlier name of --models.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { modelList } from './compare-options.js';
import { int, nfe, sudokuNetworkOptions } from './options.js';

export const sudokuCompareFlags = (c: Command): Command =>
  sudokuNetworkOptions(c)
    .option(
      '--eval-every <n>',
      "held-out evaluation period in steps (default: the size's)",
      int(1, 1_000_000_000),
    )
    .addOption(
      new Option('--processes <list>', 'the earlier name of --models')
        .argParser(modelList)
        .hideHelp(),
    )
    .option('--limit <n>', 'held-out puzzles for the final evaluation', int(1, 1_000_000), 1000)
    .option('--nfe <n>', "NFE of the final evaluation by the paper's confidence policy", nfe, 32)
    .option('--adaptive-nfe <n>', "the adaptive sampler's NFE cap in the final evaluation", nfe, 64)
    .option('--data <file>', 'training puzzles (default: 20,000 generated here)')
    .option('--eval-data <file>', 'held-out puzzles (default: generated here)')
    .hook('preAction', (self) => {
      const o = self.opts();
      if (o.processes && self.getOptionValueSource('models') === 'cli')
        throw new InvalidArgumentError('give --models or its earlier name --processes, not both');
      if (o.processes) self.setOptionValue('models', o.processes);
    });
