// The `sjd` command line: thin; parses and validates arguments, calls the library, prints.
// Bad input gets one line on stderr and a non-zero exit, never a stack trace.
import { Command, InvalidArgumentError } from 'commander';
import { runReverseDemo } from '../tasks/reverse/demo.js';
import { getNumThreads, setNumThreads, torchVersion } from '../torch/index.js';

function int(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer in [${min}, ${max}]`);
    return n;
  };
}

const program = new Command('sjd')
  .description(
    'Sticky Jump Diffusions: masked, continuous, hybrid and blended diffusion on libtorch',
  )
  .option('--threads <n>', 'libtorch intra-op threads', int(1, 1024))
  .hook('preAction', (cmd) => {
    const t = cmd.opts().threads as number | undefined;
    if (t !== undefined) setNumThreads(t);
  })
  .configureOutput({
    outputError: (str, write) => write(`sjd: ${str.replace(/^error: /, '').trim()}\n`),
  })
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

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

program
  .command('info')
  .description('show the libtorch build, threads and devices sjd uses')
  .action(() => {
    const v = torchVersion();
    console.log(
      `libtorch ${v.torch}; threads ${getNumThreads()}; CUDA ${v.cuda ? `yes (${v.cudaDevices} devices)` : 'no'}`,
    );
    console.log(v.config.trim());
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  console.error(`sjd: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  process.exit(1);
}
