// `sjd demo`: a small transformer learns to reverse token sequences in a few seconds.
import type { Command } from 'commander';
import { runReverseDemo } from '../tasks/reverse/demo.js';
import { getNumThreads, torchVersion } from '../torch/index.js';
import { int } from './options.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('train a small transformer for a few seconds and show its loss falling')
    .option('--steps <n>', 'training steps', int(1, 1_000_000), 400)
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
    .option('--length <n>', 'sequence length', int(2, 256), 12)
    .action(async (o: { steps: number; seed: number; length: number }) => {
      const v = torchVersion();
      console.log(`sjd demo (libtorch ${v.torch}, ${getNumThreads()} threads)`);
      const r = await runReverseDemo({ ...o, vocab: 10, log: (l) => console.log(l) });
      console.log(`trained ${o.steps} steps in ${r.seconds.toFixed(1)} s`);
      console.log(`input     ${r.example.input.join(' ')}`);
      console.log(`reversed  ${r.example.output.join(' ')}  (model output)`);
      console.log(`held-out token accuracy ${(100 * r.accuracy).toFixed(1)}%`);
    });
}
