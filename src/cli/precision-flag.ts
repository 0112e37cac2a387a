// --precision of the commands that sample, solve, evaluate or serve a model: auto (the default,
// SJD_PRECISION where set), float32 or bfloat16, resolved by model/auto-precision.ts. The value
// reaches the loaders as the setting; the program's first line (program.ts) names the precision it
// resolves to here, and why, before any work starts.
import { type Command, Option } from 'commander';
import {
  describePrecision,
  PRECISION_ENV,
  PRECISION_SETTINGS,
  type PrecisionSetting,
  resolvePrecision,
} from '../model/auto-precision.js';
import { oneOf } from './options.js';

/** The model's task for a command's invocation (its arguments); null: none is sampled. */
type TaskOf = (cmd: Command) => string | null | undefined;

const TASK_OF = new WeakMap<Command, TaskOf>();

/** `cmd` with --precision, for models of `task` (a name, or the invocation's: `sjd demo TASK`). */
export function withPrecisionFlag(cmd: Command, task?: string | TaskOf): Command {
  TASK_OF.set(cmd, typeof task === 'function' ? task : () => task);
  return cmd.addOption(
    new Option(
      '--precision <p>',
      "the network's compute precision: auto (bfloat16 where the CPU or GPU multiplies it natively, about 1.5 times as fast at the same quality; else float32), float32, or bfloat16 (matrix products under autocast)",
    )
      .argParser(oneOf(PRECISION_SETTINGS))
      .default('auto' satisfies PrecisionSetting)
      .env(PRECISION_ENV),
  );
}

/** For a command with --precision: the precision it resolves to, said in a phrase. */
export function precisionPhrase(cmd: Command): string | undefined {
  const taskOf = TASK_OF.get(cmd);
  if (taskOf === undefined) return undefined;
  const task = taskOf(cmd);
  if (task === null) return undefined;
  const setting = cmd.getOptionValue('precision') as PrecisionSetting;
  const r = resolvePrecision(setting, task);
  // a precision asked for through the environment says so
  const fromEnv = cmd.getOptionValueSource('precision') === 'env';
  return describePrecision(fromEnv ? { ...r, why: r.why.replace(/^asked/, PRECISION_ENV) } : r);
}
