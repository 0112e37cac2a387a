// `sjd export`: a run's EMA weights as a model folder (config.json, model.safetensors,
// manifest.json), float16 by default, for any task (the shape comes from the run's config).
import type { Command } from 'commander';
import { taskShape, train } from '../index.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      "write a run's EMA weights as a model folder (config.json + model.safetensors), float16 by default",
    )
    .requiredOption('--run <dir>', 'the run folder')
    .requiredOption('--out <dir>', 'the model folder to write (e.g. models/sudoku)')
    .option('--float32', 'keep float32 weights')
    .option('--force', 'replace --out even if it is not a model folder sjd wrote')
    .action((o: { run: string; out: string; float32?: boolean; force?: boolean }) => {
      const file = train.exportModel(o.run, o.out, taskShape, {
        dtype: o.float32 ? 'float32' : 'float16',
        force: o.force === true,
      });
      console.log(`wrote ${file}`);
    });
}
