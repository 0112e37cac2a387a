// `sjd train`'s precision: --precision, else for a new run the default setting (SJD_PRECISION,
// else auto; a resumed run trains as its config says). auto is the network's compute precision
// chosen by the machine when a run starts (model/auto-precision.ts: bfloat16 where the CPU or GPU
// multiplies it natively and the task's held-out curves in bfloat16 agree with float32's, else
// float32) and recorded in its config.json like a precision asked for, so that a resume trains as
// the run began. In a data-parallel run every rank takes rank 0's choice, whatever its own
// machine would choose.
import type { Command } from 'commander';
import {
  AUTO_TRAINING_KEEPS_FLOAT32,
  defaultPrecisionSetting,
  type PrecisionSetting,
  type ResolvedPrecision,
  resolvePrecision,
} from '../model/auto-precision.js';
import type { Precision } from '../model/precision.js';
import * as torch from '../torch/index.js';
import type { DataParallel } from '../train/data-parallel.js';
import { fromEnvironment } from './precision-flag.js';

/** The setting a run trains at: --precision, else a new run's default; a resumed run's: none. */
export const trainingSetting = (o: {
  precision?: PrecisionSetting;
  resume?: boolean;
}): PrecisionSetting | undefined =>
  o.precision ?? (o.resume ? undefined : defaultPrecisionSetting());

/** `setting` resolved for a run of `task` by training's rule (AUTO_TRAINING_KEEPS_FLOAT32). */
const trainingRule = (setting: PrecisionSetting, task: string): ResolvedPrecision =>
  resolvePrecision(setting, task, undefined, AUTO_TRAINING_KEEPS_FLOAT32);

/**
 * How a new run of `task` resolves its precision, for the program's first line (precision-flag.ts);
 * null for a resumed run, which trains as its config says.
 */
export const trainingPrecisionOf =
  (task: string) =>
  (cmd: Command): ResolvedPrecision | null => {
    const o = cmd.opts() as { precision?: PrecisionSetting; resume?: boolean };
    const setting = trainingSetting(o);
    if (setting === undefined) return null;
    const r = trainingRule(setting, task);
    return o.precision === undefined ? fromEnvironment(r) : r; // the default: the environment's
  };

/** The flags with their precision setting resolved on this machine (a precision, as it is). */
export function withTrainingPrecision<F extends { precision?: PrecisionSetting; resume?: boolean }>(
  o: F,
  task: string,
): F & { precision?: Precision } {
  const setting = trainingSetting(o);
  if (setting === undefined) return o as F & { precision?: Precision };
  if (setting !== 'auto') return { ...o, precision: setting };
  return { ...o, precision: trainingRule('auto', task).precision };
}

/** `resolved` as rank 0 resolved it, for every rank of `dp` (a single process: as it is). */
export function agreedPrecision(
  resolved: Precision | undefined,
  dp: DataParallel,
): Precision | undefined {
  if (dp.group === undefined || dp.worldSize === 1 || resolved === undefined) return resolved;
  const flag = torch.tensor([resolved === 'bfloat16' ? 1 : 0], [1], 'float32');
  dp.group.broadcast(flag, 0);
  return flag.item() === 1 ? 'bfloat16' : 'float32';
}
