// `sjd train --precision auto`: the network's compute precision chosen by the machine when a run
// starts (model/auto-precision.ts: bfloat16 where the CPU or GPU multiplies it natively, else
// float32) and recorded in its config.json like a precision asked for, so that a resume trains
// as the run began. In a data-parallel run every rank takes rank 0's choice, whatever its own
// machine would choose.
import {
  AUTO_TRAINING_KEEPS_FLOAT32,
  type PrecisionSetting,
  resolvePrecision,
} from '../model/auto-precision.js';
import type { Precision } from '../model/precision.js';
import * as torch from '../torch/index.js';
import type { DataParallel } from '../train/data-parallel.js';

/** The flags with --precision auto resolved on this machine (a precision asked for, as it is). */
export function withTrainingPrecision<F extends { precision?: PrecisionSetting }>(
  o: F,
  task: string,
): F & { precision?: Precision } {
  if (o.precision !== 'auto') return o as F & { precision?: Precision };
  const { precision } = resolvePrecision('auto', task, undefined, AUTO_TRAINING_KEEPS_FLOAT32);
  return { ...o, precision };
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
