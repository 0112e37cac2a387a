// Shared option parsers for the `sjd` command: each rejects bad values with a one-line message.
// The values are read by the library's parsers (util/flag-values.ts and the tasks'), whose plain
// Error becomes commander's invalid argument here: exit 2, `option '--x <n>' argument 'y' is
// invalid. <the reason>`. A task's declared flags (TaskFlag) become options here too.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { image, process as P, type sampling, type TaskFlag, taskSpec, util } from '../index.js';
import { samplerFlag } from '../tasks/common/flag-values.js';

const { BLENDS, PRESETS, SCHEDULES } = P;

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

export const int = (min: number, max: number) => parsed(util.integerIn(min, max));

/** A path for a PNG that sjd writes: named .png, so no other format's name holds PNG bytes. */
export const pngFile = parsed((v: string) => {
  if (v.trim() === '') throw new Error('an empty path; name a .png file');
  if (!/\.png$/i.test(v)) throw new Error(`${v}: sjd writes PNG images; name the file .png`);
  return v;
});

export const num = (min: number, max: number) => parsed(util.numberIn(min, max));

/** A seed (util/flag-values.ts: 0 to 2^31 - 1). */
export const seed = parsed(util.seedValue);

/** A sampling temperature (util/flag-values.ts: 1e-3 to 100). */
export const temperature = parsed(util.temperatureValue);

export const oneOf = <T extends string>(choices: readonly T[]) => parsed(util.oneOf(choices));

/** Image grey levels: a power of two from 2 to 256 (tasks/image/flags.ts). */
export const levels = parsed(image.parseLevels);

/** A task's declared flag as commander's option (its parser's errors as invalid arguments). */
export function flagOption(f: TaskFlag): Option {
  const o = new Option(f.flags, f.description);
  if (f.parse) o.argParser(parsed(f.parse));
  if (f.default !== undefined) o.default(f.default);
  if (f.hidden) o.hideHelp();
  return o;
}

/** Adds the flags a task declares, in their order. */
export function addFlags(cmd: Command, flags: readonly TaskFlag[] = []): Command {
  for (const f of flags) cmd.addOption(flagOption(f));
  return cmd;
}

/** The command group `name` (e.g. `train`, `eval`), created once and shared by the tasks. */
export function group(program: Command, name: string, description: string): Command {
  return (
    program.commands.find((c) => c.name() === name) ??
    program.command(name).description(description)
  );
}

/** Every NFE flag takes the same range (util/flag-values.ts). */
export const nfe = parsed(util.nfeValue);

/** The process flags every training command shares (process/choice.ts has the vocabulary). */
export interface ProcessFlags {
  size: string;
  process: P.ProcessName;
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
    process: P.ProcessName;
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
export const seedOption = ['--seed <n>', 'sampling seed', seed, 0] as const;

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
    temperature,
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
  fallback?: sampling.SamplerName,
  withRules = false,
): Command {
  return cmd.addOption(flagOption(samplerFlag(flag, description, fallback, withRules)));
}
