// --precision of the commands that sample, solve, evaluate or serve a model: auto (the default,
// SJD_PRECISION where set), float32 or bfloat16, resolved by model/auto-precision.ts. The value
// reaches the loaders as the setting; the program's first line (program.ts) names the precision it
// resolves to here, and why, before any work starts. `sjd train` has its own flag and rule
// (train-precision.ts) and registers how its runs resolve, for the same line.
import { type Command, Option } from 'commander';
import {
  describePrecision,
  PRECISION_ENV,
  PRECISION_SETTINGS,
  type PrecisionSetting,
  type ResolvedPrecision,
  resolvePrecision,
} from '../model/auto-precision.js';
import { oneOf } from './options.js';

/** The model's task for a command's invocation (its arguments); null: none is sampled. */
type TaskOf = (cmd: Command) => string | null | undefined;

/** How a command's invocation resolves its precision; null: it names none. */
export type PrecisionOf = (cmd: Command) => ResolvedPrecision | null;

const PRECISION_OF = new WeakMap<Command, PrecisionOf>();

/** `r` as the default setting from the environment gave it: its reason names SJD_PRECISION. */
export const fromEnvironment = (r: ResolvedPrecision): ResolvedPrecision => ({
  ...r,
  why: r.why.replace(/^asked/, PRECISION_ENV),
});

/** Registers how `cmd` resolves its precision, for the first line (precisionPhrase). */
export const namesPrecision = (cmd: Command, of: PrecisionOf): Command => {
  PRECISION_OF.set(cmd, of);
  return cmd;
};

/** `cmd` with --precision, for models of `task` (a name, or the invocation's: `sjd demo TASK`). */
export function withPrecisionFlag(cmd: Command, task?: string | TaskOf): Command {
  const taskOf: TaskOf = typeof task === 'function' ? task : () => task;
  namesPrecision(cmd, (c) => {
    const t = taskOf(c);
    if (t === undefined || t === null) return null;
    const r = resolvePrecision(c.getOptionValue('precision') as PrecisionSetting, t);
    return c.getOptionValueSource('precision') === 'env' ? fromEnvironment(r) : r;
  });
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
  const r = PRECISION_OF.get(cmd)?.(cmd);
  return r === undefined || r === null ? undefined : describePrecision(r);
}
