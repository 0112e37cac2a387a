// What every `sjd compare` command shares (issue #28): the models by name in one grammar
// (`--models`, process/choice.ts's parseProcessName), seeds, the runs' options, the report's
// checks (a Markdown file apart from --out, both writable before any training; a file at --doc,
// or beside it, that is not a report sjd wrote is refused without --force) and the end of a
// comparison (the report, or how to continue an interrupted one).
import { existsSync, statSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { process as P, PRECISIONS, sampling, util } from '../index.js';
import { int, nfe, oneOf } from './options.js';

export const list = (check: (item: string) => void, what: string) => (v: string) => {
  const items = v.split(',').map((s) => s.trim());
  for (const s of items) {
    try {
      check(s);
    } catch (e) {
      throw new InvalidArgumentError(`${what}: ${(e as Error).message}`);
    }
  }
  return items;
};

export const modelList = (v: string) =>
  list(
    P.parseProcessName,
    'expected a comma-separated list of models',
  )(v).map(P.canonicalProcessName);

/** `--models`: the comparison's processes by name, one grammar for every task. */
export function modelsOption(cmd: Command, help: string, defaults: string[]): Command {
  return cmd.option(
    '--models <list>',
    `models: ${P.PRESETS.join(', ')} (mdlm and cadd read as masked and hybrid), ${help}`,
    modelList,
    defaults,
  );
}

/** `--nfes`: the NFE budgets a comparison samples at (a comma-separated list). */
export const nfesOption = (cmd: Command, help: string, defaults: number[]): Command =>
  cmd.option(
    '--nfes <list>',
    help,
    list((s) => nfe(s), 'expected a comma-separated list of NFE'),
    defaults.map(String),
  );

export const seedList = list((s) => {
  if (!/^\d+$/.test(s) || Number(s) > 2 ** 31 - 1) throw new Error(`'${s}' is not a seed`);
}, 'expected a comma-separated list of seeds');

/** The flags every comparison takes (runsOptions, --seeds, --models, --doc). */
export interface ComparisonFlags {
  out: string;
  steps: number;
  size: string;
  seeds: string[];
  models: string[];
  doc: string;
  wait: boolean; // --no-wait sets false
  force?: boolean; // replace a --doc (and the files beside it) that sjd did not write
}

/** The options of every comparison: the runs' folder, training steps per run and the size. */
export function runsOptions(cmd: Command, sizes: string[]): Command {
  return cmd
    .requiredOption('--out <dir>', 'folder of the runs')
    .requiredOption('--steps <n>', 'training steps per run', int(1, 1_000_000_000))
    .option('--size <name>', 'model and optimiser size', oneOf(sizes), 'cpu');
}

/** Training and scoring progress goes to stderr. */
export const logHooks = { log: (l: string) => console.error(l) };

/** The end of a comparison: the report's path, or how to continue an interrupted one (exit 130). */
export function reportDone(doc: string, complete: boolean): void {
  if (!complete) {
    console.log('interrupted; run the same command again to continue');
    process.exitCode = 130;
    return;
  }
  console.log(`wrote ${doc}`);
}

/**
 * The report: a Markdown file, so that what goes beside it (the plot, JSON, grids: its name with
 * .md replaced) never names the report itself.
 */
export function markdownFile(value: string): string {
  if (!value.endsWith('.md')) throw new InvalidArgumentError('expected a Markdown file (.md)');
  return value;
}

/**
 * The comparison folder and the report must be writable, and apart, before hours of training;
 * the report and the files beside it are sjd's own (a report it wrote before, which a
 * comparison run again rewrites) or new, unless `force`.
 */
export function checkOutputs(
  out: string,
  files: { report: string; beside: string[] },
  force: boolean,
): void {
  util.distinctOutputs({ '--out': out, '--doc': files.report });
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new Error(`--out ${out} is a file, not a folder of runs; choose another --out`);
  util.checkWritable(out);
  util.claimOutFiles(files.report, files.beside, force, {
    flag: '--doc',
    kind: util.COMPARISON_REPORT,
  });
}

/** A comparison's command: its runs' options, seeds and models (their help and defaults). */
export function comparison(
  cmd: Command,
  description: string,
  sizes: string[],
  models: { help: string; defaults: string[] },
  seeds: string[],
): Command {
  return modelsOption(
    runsOptions(cmd.description(description), sizes)
      .option('--seeds <list>', 'seeds', seedList, seeds)
      .option(
        '--precision <p>',
        "the networks' compute precision: float32, or bfloat16 (matrix products under autocast; the paper's setting) (default: float32)",
        oneOf(PRECISIONS),
      )
      .option(
        '--force',
        'replace a --doc (and the plot, data and grids beside it) that is not a report sjd wrote',
      )
      .option(
        '--no-wait',
        'leave the runs other processes hold (a comparison shared by several processes on one --out) to them, and report without them, rather than wait',
      ),
    models.help,
    models.defaults,
  );
}

/** A grid sampler that runs the hybrid and sjd models (by name; one line naming the known ones). */
export function gaussianSampler(name: string): string {
  const s = sampling.getSampler(name);
  if (s.maskedOnly || s.kind === 'adaptive')
    throw new Error(
      `sampler '${name}' does not trace text frontiers (it is ${s.maskedOnly ? "the masked models'" : 'adaptive'})`,
    );
  return name;
}
