// Shared option parsers for the `sjd` command: each rejects bad values with a one-line message.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { image, process as P, sampling, taskSpec } from '../index.js';
import { intIn } from '../util/integer.js';

const { BLENDS, PRESETS, SCHEDULES } = P;

export function int(min: number, max: number) {
  return (value: string): number => {
    try {
      return intIn(value, min, max);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}

export function num(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a number in [${min}, ${max}]`);
    return n;
  };
}

/** Image grey levels: a power of two from 2 to 256 (tasks/image/levels.ts). */
export function levels(value: string): number {
  const n = Number(value);
  try {
    image.checkLevels(n);
  } catch {
    throw new InvalidArgumentError('expected a power of two from 2 to 256');
  }
  return n;
}

/** A flag's value parsed by a library function: its one-line error as commander's invalid argument. */
export function parsed<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}

export function oneOf(choices: readonly string[]) {
  return (value: string): string => {
    if (!choices.includes(value))
      throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return value;
  };
}

/** The command group `name` (e.g. `train`, `eval`), created once and shared by the tasks. */
export function group(program: Command, name: string, description: string): Command {
  return (
    program.commands.find((c) => c.name() === name) ??
    program.command(name).description(description)
  );
}

/** Every NFE flag takes the same range; a budget below one step of a sampler is refused by the driver. */
export const nfe = int(1, 4096);

/** The process flags every training command shares (process/choice.ts has the vocabulary). */
export interface ProcessFlags {
  size: string;
  process: string;
  blend?: string;
  sigmaW?: number; // --sigma-w: W's bandwidth (text, Sudoku)
  sigmaB?: number; // --sigma-b: the image blur B's bandwidth
  eta?: number;
  schedule: string;
}

/**
 * The process flags; the bandwidth's is that of the task's default W (bandwidthOf): `--sigma-b`
 * for the image blur B, else `--sigma-w`, and the other is refused in one line naming it.
 */
export function processOptions(
  cmd: Command,
  d: {
    sizes: string[];
    process: string;
    blend: string;
    bandwidth: number;
    schedule: string;
    pixel?: boolean;
  },
): Command {
  const own = P.bandwidthOf(d.blend);
  const names = [...PRESETS, ...(d.pixel ? P.PIXEL_PRESETS : [])];
  const pixel = d.pixel
    ? `; ${P.PIXEL_PRESETS.join(' and ')} are the pixel-space DDPM and Bit Diffusion baselines`
    : '';
  const other = P.BANDWIDTHS[own.key === 'sigmaB' ? 'sigmaW' : 'sigmaB'];
  return cmd
    .option(
      '--size <name>',
      `model and optimiser size (${d.sizes.join(', ')})`,
      oneOf(d.sizes),
      'cpu',
    )
    .option(
      '--process <name>',
      `the process (${names.join(', ')}): masked is MDLM, hybrid CADD, sjd blends by W${pixel}`,
      oneOf(names),
      d.process,
    )
    .option(
      '--blend <name>',
      `sjd: the blending matrix W (${Object.keys(BLENDS).join(', ')}; default ${d.blend})`,
      oneOf(Object.keys(BLENDS)),
    )
    .option(
      `${own.flag} <s>`,
      `sjd: bandwidth ${own.symbol} of ${own.of}`,
      num(1e-6, 1000),
      d.bandwidth,
    )
    .addOption(
      new Option(`${other.flag} <s>`).hideHelp().argParser(() => {
        throw new InvalidArgumentError(
          `the bandwidth here is ${own.symbol} of ${own.of}: use ${own.flag}`,
        );
      }),
    )
    .option('--eta <x>', 'sjd: unsticking ratio eta in (0, 1] (default 1)', num(1e-6, 1))
    .option(
      '--schedule <name>',
      `hybrid, sjd: noise schedule of unstuck sites (${Object.keys(SCHEDULES).join(', ')}; rank is CANDI's rank degradation)`,
      oneOf(Object.keys(SCHEDULES)),
      d.schedule,
    );
}

/** A sampling command's `--seed` (every task's). */
export const seedOption = ['--seed <n>', 'sampling seed', int(0, 2 ** 31 - 1), 0] as const;

/** `--top-p` with the task's default (the registry's, as the page's). */
export const topPOption = (task: string) =>
  [
    '--top-p <p>',
    "nucleus sampling mass, 1 the whole distribution (the paper's MD4 image baseline: 0.98)",
    num(1e-6, 1),
    taskSpec(task).sampling.topP,
  ] as const;

/** `--nfe` with the task's default budget (the registry's, as the page's). */
export const nfeOption = (task: string) =>
  ['--nfe <n>', 'model evaluations', nfe, taskSpec(task).sampling.nfe()] as const;

/** `--temperature` with the task's default (the registry's, as the page's). */
export const temperatureOption = (task: string) =>
  [
    '--temperature <t>',
    'sampling temperature',
    num(1e-6, 100),
    taskSpec(task).sampling.temperature,
  ] as const;

/**
 * A sampler flag (`--sampler`, `--eval-sampler`), its choices from the sampler registry: those a
 * task may use (the searching ones only for a task with rules, `withRules`: Sudoku's).
 */
export function samplerOption(
  cmd: Command,
  flag: string,
  description: string,
  fallback?: string,
  withRules = false,
): Command {
  const names = sampling.samplerNames(withRules);
  return cmd.option(
    `${flag} <name>`,
    `${description} (${names.join(', ')})`,
    oneOf(names),
    fallback,
  );
}

/**
 * The Sudoku network's flags, shared by `sjd train sudoku` and `sjd compare sudoku` (issue #13):
 * the training boards' symmetries, the attention pattern, weight-tied looping and its deep
 * supervision. Unset, each is
 * the size's.
 */
export const sudokuNetworkOptions = (c: Command) =>
  c
    .option(
      '--augment <kind>',
      "symmetries drawn per training board: none, digits (relabelling), full (digits, bands, stacks, rows, columns, transposition) (default: the size's: full for cpu, else digits)",
      oneOf(['none', 'digits', 'full']),
    )
    .option(
      '--attention <kind>',
      "dense, peers (every head sees a cell and its 20 peers) or typed (heads by row, column, box, peers) (default: the size's: peers for cpu, else dense)",
      oneOf(['dense', 'peers', 'typed']),
    )
    .option(
      '--loops <n>',
      "apply the blocks n times with the same weights (default: the size's: 1)",
      int(1, 64),
    )
    .option(
      '--deep-supervision',
      'train every loop to answer: the cross-entropy after each loop through the blocks, averaged (needs --loops >= 2)',
    );
