// `sjd export`: a run's EMA weights as a model folder (config.json, model.safetensors,
// manifest.json), float16 by default, for any task (the shape comes from the run's config);
// --precision sets the compute precision the model samples at (default: the run's).
import type { Command } from 'commander';
import { PRECISIONS, type Precision, taskShape, train } from '../index.js';
import { oneOf } from './options.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      "write a run's EMA weights as a model folder (config.json + model.safetensors), float16 by default",
    )
    .requiredOption('--run <dir>', 'the run folder')
    .requiredOption('--out <dir>', 'the model folder to write (e.g. models/sudoku)')
    .option('--float32', 'keep float32 weights')
    .option(
      '--precision <p>',
      "the compute precision the model samples at: float32 or bfloat16 (default: the run's; a bfloat16 run exported at float32 samples on any CPU at full speed)",
      oneOf(PRECISIONS),
    )
    .option('--force', 'replace --out: a model folder, or a folder sjd did not write')
    .action(
      (o: {
        run: string;
        out: string;
        float32?: boolean;
        precision?: Precision;
        force?: boolean;
      }) => {
        const file = train.exportModel(o.run, o.out, taskShape, {
          dtype: o.float32 ? 'float32' : 'float16',
          precision: o.precision,
          force: o.force === true,
        });
        console.log(`wrote ${file}`);
      },
    );
}
