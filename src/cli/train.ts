// `sjd train TASK`, one subcommand for every task of the registry (tasks/registry.ts): train a
// denoiser into a run folder (config, manifest, checkpoints, metrics.csv, metrics.svg) with a
// progress bar; --resume continues exactly. Each takes the same run and process flags and the
// same body (train-run.ts), then the flags its task declares (train.flags), checks --out before
// loading any data, and builds its run with its task's spec (train.prepare).
import type { Command } from 'commander';
import { type Precision, type TaskSpec, type TrainOptions, taskSpecs } from '../index.js';
import { addFlags, group, type ProcessFlags, processOptions } from './options.js';
import { namesPrecision } from './precision-flag.js';
import { trainingPrecisionOf } from './train-precision.js';
import { type RunFlags, runOptions, trainAction } from './train-run.js';

/** `sjd train TASK` for one task: the shared flags, the task's own, the shared body. */
function registerTrainTask(cmd: Command, spec: TaskSpec): void {
  const { description, sizes, defaults, config } = spec.train;
  const c = cmd.command(spec.name).description(description);
  runOptions(processOptions(c, { sizes: Object.keys(sizes), ...defaults }));
  // commander's options hold the run, process and task flags under their camelCase names; the
  // bandwidth flag is the task's one of --sigma-w and --sigma-b (options.ts)
  const options = (o: ProcessFlags & RunFlags & Record<string, unknown>): TrainOptions => ({
    ...o,
    bandwidth: o.sigmaB ?? o.sigmaW,
    precision: o.precision as Precision | undefined, // auto resolved (trainAction)
    log: (line) => console.error(`sjd train ${spec.name}: ${line}`),
  });
  namesPrecision(c, trainingPrecisionOf(spec.name));
  addFlags(c, spec.train.flags).action(
    trainAction(
      spec.name,
      (o, saved) => spec.train.prepare(options(o), saved),
      config && ((o) => config(options(o))),
    ),
  );
}

export function registerTrain(program: Command): void {
  const cmd = group(program, 'train', 'train a denoiser');
  for (const spec of taskSpecs()) registerTrainTask(cmd, spec);
}
