// What every `sjd compare` command shares: the models by name in one grammar
// (`--models`, process/choice.ts's parseProcessName), seeds, the runs' options, the report's
// checks (a Markdown file apart from --out, both writable before any training; a file at --doc,
// or beside it, that is not a report sjd wrote is refused without --force) and the end of a
// comparison (the report, or how to continue an interrupted one); its progress on stderr.
import { existsSync, statSync } from 'node:fs';
import { type Command, InvalidArgumentError } from 'commander';
import { process as P, PRECISIONS, util } from '../index.js';
import * as lab from '../lab/index.js';
import { modelList } from '../tasks/common/flag-values.js';
import type { TrainHooks } from '../train/index.js';
import { int, oneOf, parsed } from './options.js';
import { type Progress, progress } from './progress.js';

/** `--models`: the comparison's processes by name, one grammar for every task. */
export function modelsOption(
  cmd: Command,
  help: string,
  defaults: string[],
  parse: (value: string) => string[] = modelList,
): Command {
  return cmd.option(
    '--models <list>',
    `models: ${P.PRESETS.join(', ')} (mdlm and cadd read as masked and hybrid), ${help}`,
    parsed(parse),
    defaults,
  );
}

/** The flags every comparison takes (runsOptions, --seeds, --models, --doc). */
export interface ComparisonFlags {
  out: string;
  steps: number;
  size: string;
  seeds: number[];
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

/**
 * Training and scoring progress on stderr: the log's lines, and each run's steps as a progress
 * report (cli/progress.ts: after a second of training, a bar on a terminal, else a line every
 * few seconds), begun again where a run starts (its log line names its folder).
 */
export function compareHooks(): Pick<TrainHooks, 'log' | 'progress'> {
  let run = 'training';
  let report: { total: number; last: number; shown: Progress } | undefined;
  return {
    log: (line) => {
      const starts = /^(training|resuming) (\S+)/.exec(line);
      if (starts) {
        report?.shown.stop();
        report = undefined;
        run = `${starts[1]} ${starts[2]}`;
      }
      if (report && process.stderr.isTTY) process.stderr.write('\n'); // below the bar
      console.error(line);
    },
    progress: (step, total) => {
      if (report === undefined || report.total !== total || step < report.last)
        report = { total, last: step, shown: progress(run, total, 'steps', undefined, step - 1) };
      report.last = step;
      report.shown.update(step);
    },
  };
}

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
    kind: lab.COMPARISON_REPORT,
  });
}

/** A comparison's command: its runs' options, seeds and models (their help and defaults). */
export function comparison(
  cmd: Command,
  description: string,
  sizes: string[],
  models: { help: string; defaults: string[]; parse?: (value: string) => string[] },
  seeds: number[],
): Command {
  return modelsOption(
    runsOptions(cmd.description(description), sizes)
      .option('--seeds <list>', 'seeds', parsed(util.seedList), seeds)
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
    models.parse,
  );
}
