// A run trained to its end from wherever its folder stands (train/run-folder.ts): started, resumed from
// its checkpoint, or, when a comparison has cached all it needs of it, left as it is, so
// comparisons continue across sessions and machines; a run kept without its weights whose
// comparison needs more of it is trained again and its cached results checked (kept-run.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainConfig } from '../train/config.js';
import { finishedStep, RUN_FILES } from '../train/run-folder.js';
import type { TrainTask } from '../train/task.js';
import { type TrainHooks, train } from '../train/trainer.js';
import { settleRetrain, startRetrain } from './kept-run.js';

/**
 * Trains the run in `dir` until config.steps, starting it or resuming it as its folder says
 * (comparisons continue across sessions this way); false when interrupted.
 */
export async function trainToEnd(
  dir: string,
  config: TrainConfig,
  task: TrainTask,
  hooks: TrainHooks = {},
): Promise<boolean> {
  const done = finishedStep(dir);
  if (done >= config.steps) return true;
  hooks.log?.(`${done > 0 ? 'resuming' : 'training'} ${dir}`);
  const r = await train(dir, config, task, done > 0, hooks);
  return !r.interrupted;
}

/**
 * trainToEnd, unless the comparison has everything it needs of the run cached beside its config
 * (`scored`): such a run needs neither its checkpoint nor more training, so the results of a
 * finished run, kept without its weights, resume a comparison on another machine. A kept run
 * the comparison needs more of is trained again, and its cached results are checked against the
 * retrained run (kept-run.ts).
 */
export async function trainUnlessScored(
  dir: string,
  config: TrainConfig,
  task: TrainTask,
  scored: boolean,
  hooks: TrainHooks = {},
): Promise<boolean> {
  if (scored && existsSync(join(dir, RUN_FILES.config))) return true;
  startRetrain(dir, config, hooks.log); // a run kept without its weights is trained again
  const finished = await trainToEnd(dir, config, task, hooks);
  if (finished) settleRetrain(dir, config.steps, hooks.log);
  return finished;
}
