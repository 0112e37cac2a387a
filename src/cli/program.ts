// The `sjd` command tree: every command, its options and its action, built by commander. main.ts
// runs it; tests read it (the commands and the flags each takes) without starting a process per
// help page. A user's task modules (--task-module) must be loaded before it is built, so that each
// task has its subcommands. The environment variables SJD_THREADS, SJD_DEVICE and SJD_PRECISION
// are checked as the flags they stand for.
// SJD_PARSE_ONLY=1 parses the command line and stops before the command runs: commander has
// then matched the command, refused unknown options and missing required ones, and run every
// option's value parser (so a bad value still exits 2 with its one-line reason); the process
// prints `sjd: parsed <command path>` and exits 0 without loading libtorch, reading or writing
// anything. Checks a command makes in its own hooks or action (flag combinations, files, the
// device) do not run. test/doc-commands.test.ts runs every command line of the docs this way.

import { Command, Option } from 'commander';
import { torch } from '../index.js';
import { registerCompare } from './compare.js';
import { registerDemo } from './demo.js';
import { registerExport } from './export.js';
import { registerExportWeb } from './export-web.js';
import { registerFigure } from './figure.js';
import * as image from './image/index.js';
import { int } from './options.js';
import { precisionPhrase } from './precision-flag.js';
import { registerRuns } from './runs.js';
import { registerSampleTasks } from './sample-task.js';
import * as sequences from './sequences/eval.js';
import { registerServe } from './serve.js';
import * as sudoku from './sudoku/index.js';
import { TASK_MODULE_FLAG } from './task-modules.js';
import * as text from './text/index.js';
import { registerTrain } from './train.js';

/** The whole command tree: the root's flags and hooks, then every command. */
export function buildProgram(): Command {
  const program = rootCommand();
  registerCommands(program);
  return program;
}

/** The names from `sjd` down to the command that runs (e.g. ['sample', 'text']). */
function commandPath(action: Command): string[] {
  const path: string[] = [];
  for (let c: Command | null = action; c?.parent; c = c.parent) path.unshift(c.name());
  return path;
}

/**
 * Commands that do not say on stderr which tensor backend runs: those that say it themselves
 * (info, demo) and those that run no model (data, runs, figure). Every other command's first
 * line on a terminal's stderr names it ('sjd solve: libtorch 2.1.2', or the TypeScript backend
 * and why); piped or logged, stderr holds only what went wrong (a failure's one line).
 */
const QUIET_COMMANDS = new Set(['info', 'demo', 'data', 'runs', 'figure']);

/**
 * `sjd` itself: its global flags (threads, device, task modules, TF32), the hook that applies
 * them, one-line errors.
 */
function rootCommand(): Command {
  return new Command('sjd')
    .description(
      'Sticky Jump Diffusions: masked, continuous, hybrid and blended diffusion on libtorch',
    )
    .addOption(
      new Option(
        '--threads <n>',
        `libtorch intra-op threads (this machine: ${torch.THREAD_RANGE.max} cores)`,
      )
        .argParser(int(torch.THREAD_RANGE.min, torch.THREAD_RANGE.max))
        .env('SJD_THREADS'),
    )
    .addOption(
      new Option(
        '--device <name>',
        'where tensors live: cpu, cuda or cuda:N (cuda needs the addon built against a CUDA libtorch)',
      ).env('SJD_DEVICE'),
    )
    .option(
      `${TASK_MODULE_FLAG} <file>`,
      'load a task of your own from a module that registers it (repeatable; docs/library.md)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      '--tf32',
      'TensorFloat-32 in float32 matrix products on NVIDIA GPUs (faster, about 3 significant digits; as PyTorch allow_tf32)',
    )
    .hook('preAction', beforeAction)
    .configureOutput({
      outputError: (str, write) => write(`sjd: ${str.replace(/^error: /, '').trim()}\n`),
    })
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
}

/**
 * Before any command: paths refused when empty, SJD_PARSE_ONLY's stop, the threads, device and
 * TF32 applied, and on a terminal the first line (the backend, and the precision of a command
 * that samples a model).
 */
function beforeAction(cmd: Command, action: Command): void {
  refuseEmptyPaths(action);
  if (process.env.SJD_PARSE_ONLY === '1') {
    console.log(`sjd: parsed ${commandPath(action).join(' ')}`);
    process.exit(0);
  }
  const o = cmd.opts() as { threads?: number; device?: string; tf32?: boolean };
  // SJD_THREADS is checked by the flag's parser above and applied when libtorch loads (no
  // load for it here), and so is --threads, through it, when libtorch is not loaded yet (its
  // thread pools then start at that count); a device needs libtorch to be checked, so
  // SJD_DEVICE's is checked now (the load names the variable), before the command starts.
  if (o.threads !== undefined && cmd.getOptionValueSource('threads') === 'cli') {
    if (torch.isLoaded()) torch.setNumThreads(o.threads);
    else process.env.SJD_THREADS = String(o.threads);
  }
  if (o.device !== undefined) torch.setDefaultDevice(o.device);
  if (o.tf32) torch.setAllowTF32(true);
  const path = commandPath(action);
  // on a terminal, the first line: the backend, and the precision of a command that samples
  // (piped, stderr holds only what goes wrong; eval's JSON names the precision)
  if (process.stderr.isTTY && !QUIET_COMMANDS.has(path[0]!)) {
    const precision = precisionPhrase(action);
    const be = torch.backend();
    console.error(
      `sjd ${path.join(' ')}: ${be.label}${be.name === 'js' ? ` (${be.why})` : ''}${precision === undefined ? '' : `, ${precision}`}`,
    );
  }
}

/** A flag whose value is a path (its value name in --help). */
const PATH_VALUE = /<(file|dir|csv|path|folder)>/;

/** A path flag given as '' (a shell variable left unset) would name the working folder: refused. */
function refuseEmptyPaths(action: Command): void {
  const empty = action.options.find(
    (opt) => PATH_VALUE.test(opt.flags) && action.getOptionValue(opt.attributeName()) === '',
  );
  if (empty) action.error(`${empty.long} is empty; name a file or folder`);
}

/**
 * The commands, in the order --help lists them and each group's subcommands (a group is made by
 * the first subcommand that joins it).
 */
function registerCommands(program: Command): void {
  registerDemo(program);
  registerTrain(program);
  sudoku.registerSolve(program);
  sudoku.registerEval(program);
  text.registerData(program);
  text.registerSample(program);
  text.registerEval(program);
  sudoku.registerData(program);
  image.registerData(program);
  image.registerFeatures(program);
  image.registerEval(program);
  image.registerSample(program);
  sequences.registerEval(program);
  registerSampleTasks(program);
  registerCompare(program);
  registerExport(program);
  registerExportWeb(program);
  registerRuns(program);
  registerFigure(program);
  registerServe(program);
  registerInfo(program);
}

function registerInfo(program: Command): void {
  program
    .command('info')
    .description(
      'show the tensor backend (libtorch or TypeScript) and why, the libtorch build (and how it was found), the BLAS in use, threads, devices and the CPU',
    )
    .action(() => {
      const be = torch.backend();
      if (be.name === 'js') {
        console.log(`backend: ${be.label} (${be.why})`);
        console.log(
          `runs models on this CPU in one thread, matrix products in WebAssembly SIMD; training needs libtorch (${torch.LIBTORCH_FIX})`,
        );
        console.log(`CPU: ${torch.describeCpu()}`);
        return;
      }
      console.log(`backend: ${be.label} (${be.why})`);
      const v = torch.torchVersion();
      console.log(
        `libtorch ${v.torch}; threads ${torch.getNumThreads()}; device ${torch.defaultDevice()}; CUDA ${v.cuda ? `yes (${v.cudaDevices} devices)` : 'no'}`,
      );
      const b = torch.addonBuild();
      console.log(
        b
          ? `addon built against libtorch ${b.version} found by ${b.how} (headers ${b.include[0]}, libraries ${b.libdir})`
          : 'addon: no build record (prebuilt, or built by an older sjd)',
      );
      const libs = torch.loadedLibraries();
      console.log(`libtorch loaded from ${libs.libtorch.join(', ') || 'unknown'}`);
      console.log(`BLAS: ${libs.blas.join(', ') || "none mapped (libtorch's own kernels)"}`);
      console.log(`CPU: ${torch.describeCpu()}`);
      console.log(v.config.trim());
    });
}
