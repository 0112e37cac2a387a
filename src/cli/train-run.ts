// What every `sjd train TASK` shares: the run and data-parallel flags, the process
// flags as a config's options, and the body of the command (ranks launched or joined, the run
// folder checked, the config resumed with its flags checked (resume.ts) or made, trained with a
// progress bar and exact resume).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { type PreparedRun, train as T } from '../index.js';
import { PRECISION_SETTINGS, type PrecisionSetting } from '../model/auto-precision.js';
import * as torch from '../torch/index.js';
import { configFlags, readConfigFile, withConfigFile } from './config-file.js';
import { int, num, oneOf, seed } from './options.js';
import {
  joinGroup,
  launched,
  type ParallelFlags,
  parallelOptions,
  withShards,
} from './parallel.js';
import { cliProgress, formatTime } from './progress.js';
import { extensionNote, resumeFlags, withRecordedFlags } from './resume.js';
import { agreedPrecision, trainingSetting, withTrainingPrecision } from './train-precision.js';

export interface RunFlags extends ParallelFlags {
  stopAfter?: number;
  data?: string;
  seed: number;
  steps?: number;
  batch?: number;
  lr?: number;
  warmup?: number;
  evalEvery?: number;
  resume?: boolean;
  init?: string;
  precision?: PrecisionSetting; // auto resolved before the run is prepared (train-precision.ts)
  config?: string;
  printConfig?: boolean;
}

/** The run flags every training command takes, then the data-parallel ones (parallel.ts). */
export const runOptions = (c: Command) =>
  parallelOptions(
    c
      .hook('preAction', (cmd) => {
        const o = cmd.opts() as RunFlags & { out?: string };
        if (o.out === undefined && !o.printConfig)
          throw new Error("required option '--out <dir>' not specified");
        if ((o.config !== undefined || o.printConfig) && o.resume)
          throw new Error(
            '--config and --print-config are for a new run; a resumed run keeps its config.json',
          );
        if (o.init !== undefined && o.resume)
          throw new Error('--init starts a new run; --resume continues one: give one of them');
        if (o.init !== undefined && !existsSync(join(o.init, T.RUN_FILES.config)))
          throw new Error(`--init ${o.init}: not a model or run folder (no config.json)`);
      })
      .option('--out <dir>', 'run folder (new, empty, or with --resume the run to continue)')
      .option(
        '--config <file>',
        "a new run's settings from a JSON file in config.json's shape, as --print-config prints it (any part of it; the network's width, depth and heads too); flags given override it",
      )
      .option('--print-config', "print the new run's config as JSON and exit (no --out needed)")
      .option('--seed <n>', 'random seed', seed, 0)
      .option(
        '--steps <n>',
        "training steps (default: the size); with --resume, more than the run's extends it (a cosine learning rate is stretched to end there)",
        int(1, 1_000_000_000),
      )
      .option('--batch <n>', 'sequences a step (default: the size)', int(1, 1_000_000))
      .option('--lr <x>', 'peak learning rate (default: the size)', num(1e-8, 10))
      .option(
        '--warmup <n>',
        'learning-rate warm-up steps (default: the size)',
        int(0, 1_000_000_000),
      )
      .option(
        '--eval-every <n>',
        'steps between held-out evaluations (default: the size)',
        int(1, 1_000_000_000),
      )
      .option(
        '--precision <p>',
        "the network's compute precision: float32, bfloat16 (matrix products and convolutions under autocast, weights and optimiser in float32; the paper's setting, several times faster on CPUs with AVX-512 BF16), or auto (bfloat16 where the CPU or GPU multiplies it natively and the task's curves measured alike, else float32; chosen when a run starts and recorded; a resumed run keeps its own) (default: auto, or SJD_PRECISION)",
        oneOf(PRECISION_SETTINGS),
      )
      .option('--resume', 'continue the run in --out from its checkpoint')
      .option(
        '--init <dir>',
        "warm start a new run from a run's EMA weights or a model folder with the same network (fresh optimiser and schedule)",
      )
      .option(
        '--stop-after <n>',
        'stop after N steps of this invocation, with a checkpoint',
        int(1, 1_000_000_000),
      ),
  );

/**
 * The body every `sjd train TASK` shares: its ranks launched or joined, the run folder checked,
 * the config resumed (its flags checked against it, resume.ts; passed to `prepare`) or made by
 * it with the task, trained with progress. `configOnly`, where the task has one, makes a new
 * run's config without its data, for --print-config.
 */
export function trainAction<F extends RunFlags>(
  name: string,
  prepare: (o: F, saved: T.TrainConfig | undefined) => PreparedRun,
  configOnly?: (o: F) => T.TrainConfig,
): (o: F, cmd: Command) => Promise<void> {
  return async (given, cmd) => {
    const o = withTrainingPrecision(given, name);
    if (o.printConfig)
      return printConfig(o, cmd, configOnly ? (f) => ({ config: configOnly(f) }) : prepare);
    torch.requireLibtorch('training');
    if (await launched(o)) return;
    const dp = await joinGroup(o);
    if (trainingSetting(given) === 'auto') o.precision = agreedPrecision(o.precision, dp);
    const opened = T.openRun(o.out, o.resume === true, dp.rank === 0 || o.resume === true);
    if (dp.rank === 0) T.checkUnclaimed(o.out); // rank 0 claims the run for every rank
    const { saved } = opened;
    const at = saved ? T.finishedStep(o.out) : 0;
    const { flags, extendTo } = saved
      ? resumeFlags(name, o, cmd, saved, at)
      : { flags: o, extendTo: undefined };
    const prepared = saved ? prepare(flags, saved) : prepareNew(flags, cmd, prepare);
    const { task, about } = prepared;
    const config = saved ? prepared.config : withRecordedFlags(prepared.config, o, cmd);
    T.checkStepMemory(config, torch.defaultDevice()); // before any step: what the CPU cannot hold
    // said once the trainer has checked the run's data against the saved run's
    const ready = () => {
      console.error(`sjd train ${name}: ${about}`);
      if (saved && extendTo !== undefined && dp.rank === 0)
        console.error(`sjd train ${name}: ${extensionNote(saved, extendTo, at)}`);
    };
    await runWithProgress(
      opened,
      withShards(config, o, dp),
      task,
      { ...flags, steps: extendTo },
      dp,
      ready,
    );
  };
}

/**
 * A new run prepared from its flags and, with --config, the file's settings: those a flag makes
 * as that flag's value (the command line's overriding the file), the rest laid over the config.
 */
function prepareNew<F extends RunFlags, P extends { config: T.TrainConfig }>(
  o: F,
  cmd: Command,
  prepare: (o: F, saved: undefined) => P,
): P {
  if (o.config === undefined) return prepare(o, undefined);
  const { flags, rest } = configFlags(readConfigFile(o.config), cmd, o.config);
  const prepared = prepare({ ...o, ...flags }, undefined);
  return { ...prepared, config: withConfigFile(prepared.config, rest, o.config) };
}

/**
 * --print-config: the config a new run with these flags would have, as JSON on stdout (made by
 * the task's config alone where it has one: no data read or generated).
 */
function printConfig<F extends RunFlags>(
  o: F,
  cmd: Command,
  prepare: (o: F, saved: undefined) => { config: T.TrainConfig },
): void {
  const { config } = prepareNew(o, cmd, prepare);
  console.log(JSON.stringify(withRecordedFlags(config, o, cmd), null, 2));
}

/**
 * The progress bar (loss, tokens/s, ETA) on stderr, started at the first report; log lines go
 * below it.
 */
function progressBar() {
  const bar = new (cliProgress().SingleBar)(
    {
      format: 'step {value}/{total} |{bar}| loss {loss} | {tps} tokens/s | ETA {eta_formatted}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 30_000,
      etaBuffer: 50,
      formatTime,
    },
    cliProgress().Presets.shades_classic,
  );
  let started = false;
  const hooks: Pick<T.TrainHooks, 'progress' | 'log'> = {
    progress: (step, total, info) => {
      if (!started) {
        bar.start(total, step, { loss: '-', tps: '-' });
        started = true;
      }
      bar.update(step, { loss: info.loss.toFixed(4), tps: Math.round(info.tokensPerS) });
    },
    log: (line) => {
      if (started && process.stderr.isTTY) process.stderr.write('\n');
      console.error(line);
    },
  };
  return { hooks, stop: () => started && bar.stop() };
}

/** The line that ends training: how it ended, the last evaluation, the takeoff, the checkpoint. */
function outcomeLine(r: T.TrainResult, task: T.TrainTask, o: RunFlags, out: string): string {
  const ev = r.lastEval
    ? Object.entries(r.lastEval)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(', ')
    : 'no evaluation';
  const takeoff = task.takeoffMetric ? `; takeoff ${r.takeoff ?? 'not yet'}` : '';
  const outcome =
    r.stoppedBy === 'signal'
      ? `interrupted at step ${r.step}`
      : r.stoppedBy === 'stopAfter'
        ? `stopped at step ${r.step} (--stop-after ${o.stopAfter}; --resume continues)`
        : `finished at step ${r.step}`;
  return `${outcome}; ${ev}${takeoff}; checkpoint in ${join(out, T.RUN_FILES.checkpoint)}`;
}

/**
 * Trains with a progress bar (loss, tokens/s, ETA) and prints the outcome: finished, stopped as
 * --stop-after asked (exit 0), or interrupted by a signal (exit 130).
 */
export async function runWithProgress(
  opened: T.OpenedRun,
  config: T.TrainConfig,
  task: T.TrainTask,
  o: RunFlags,
  dp: T.DataParallel = T.SINGLE,
  ready?: () => void,
): Promise<void> {
  const resume = o.resume === true;
  // (--init with --resume is refused before this, by runOptions' hook)
  if (o.init !== undefined && !resume) config = { ...config, init: { from: o.init } };
  const lead = dp.rank === 0;
  const bar = progressBar();
  // on resume, o.steps is the run's new end when it extends the run (resume.ts), else unset
  const hooks: T.TrainHooks = {
    stopAfter: o.stopAfter,
    steps: resume ? o.steps : undefined,
    ready,
  };
  const r = await T.train(
    opened,
    config,
    task,
    resume,
    lead ? { ...hooks, ...bar.hooks } : hooks,
    dp,
  );
  dp.group?.destroy();
  bar.stop();
  if (r.stoppedBy === 'signal') process.exitCode = 130;
  if (lead) console.log(outcomeLine(r, task, o, opened.dir));
}
