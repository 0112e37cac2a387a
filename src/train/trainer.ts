// The training loop shared by every task and process (Alg. sjd-training; docs/design.md §2, §4),
// read top to bottom: the run's parts (the objective, objective.ts; the model, AdamW, EMA, the
// metrics log) are built, or restored from a checkpoint when resuming, by training-run.ts; then
// per step draw times and a batch, corrupt and take a step on the objective's loss (sjd-loss.ts or
// the pixel processes', step.ts), update the EMA, log, evaluate the EMA weights, checkpoint. One
// generator drives initialisation, data, times, corruption and dropout, and the checkpoint holds
// its state and the logging window, so a resumed run repeats the uninterrupted one bit for bit.
// SIGINT/SIGTERM stop at the end of a step with a checkpoint.
// A run whose config has `shards` is data-parallel (data-parallel.ts): the batch's shards draw
// from their own generators, the ranks of a process group share them and sum their gradients,
// every rank stops at the same step, and rank 0 alone writes the folder, evaluates and logs.
// Whether a run needs training at all (started, resumed or already scored) is train-to-end.ts's.
import { setImmediate as turn } from 'node:timers/promises';
import { sampleTimes } from '../process/index.js';
import { requireLibtorch, TorchGenerator } from '../torch/index.js';
import { parseConfig, type TrainConfig } from './config.js';
import {
  type DataParallel,
  SINGLE,
  shardGenerator,
  sumOver,
  syncGradients,
} from './data-parallel.js';
import type { Trainable } from './objective.js';
import { claimRunOrFail } from './run-claim.js';
import { type OpenedRun, openRun } from './run-folder.js';
import { learningRate } from './schedule.js';
import { accumulateStep, optimiseStep } from './step.js';
import type { TrainTask } from './task.js';
import { buildRun, checkpoint, type Run, restoreOrStart, type TrainHooks } from './training-run.js';

export type { TrainHooks };

export interface TrainResult {
  step: number;
  losses: number[]; // per step of this invocation
  interrupted: boolean; // stopped before the run's end (by a signal or by stopAfter)
  /** why a run stopped before its end: a signal (SIGINT, SIGTERM), or stopAfter as asked */
  stoppedBy: 'signal' | 'stopAfter' | null;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
}

/**
 * Trains the run in `dir` (resuming its checkpoint when `resume`; a folder openRun has checked
 * may be given instead, its resume and saved config then the run's), under a claim on the
 * folder (run-claim.ts): a run another live process is training is refused in one line. In a
 * data-parallel group rank 0 holds the claim for every rank.
 */
export async function train(
  dir: string | OpenedRun,
  config: TrainConfig,
  task: TrainTask,
  resume: boolean,
  hooks: TrainHooks = {},
  dp: DataParallel = SINGLE,
): Promise<TrainResult> {
  requireLibtorch('training');
  const lead = dp.rank === 0;
  const opened = typeof dir === 'string' ? openRun(dir, resume, lead || resume) : dir;
  if (opened.resume !== resume)
    throw new Error(
      `train: ${opened.dir} was opened to ${opened.resume ? 'resume' : 'start'} a run`,
    );
  // a config made in code (flags, presets) is held to the schema a saved one is read by
  if (!resume) parseConfig(config, "the run's config");
  const release = lead ? claimRunOrFail(opened.dir) : () => {};
  try {
    return await trainClaimed(opened, config, task, lead, hooks, dp);
  } finally {
    release();
  }
}

/** Evaluates the EMA weights in `evalModel`; notes the takeoff and logs the line. */
function evaluate(run: Run, evalModel: Trainable): Record<string, number> {
  const { s, task } = run;
  evalModel.loadStateDict(run.ema.stateDict());
  const ev = run.objective.evaluate(evalModel, s.step);
  s.lastEval = ev;
  if (s.takeoff === null && task.takeoffMetric && (ev[task.takeoffMetric] ?? 0) > 0)
    s.takeoff = s.step;
  const line = Object.entries(ev).map(([k, v]) => `${k} ${v.toFixed(4)}`);
  run.hooks.log?.(`step ${s.step} eval ${line.join(' ')}`);
  return ev;
}

/**
 * One step: times and a batch from the run's generator (or each shard's), corruption,
 * cross-entropy, AdamW on the global batch's gradient; returns the loss and the learning rate.
 */
function trainStep(run: Run): { loss: number; lr: number } {
  const { config, objective, model, opt, task, gen, mine, dp } = run;
  const step = run.s.step;
  const lr = learningRate(config.lr, step);
  const shard = (k: number, size: number) => () => {
    const g = shardGenerator(config.seed, step, k);
    const t = sampleTimes(size, objective.T, config.timeSampling, g); // [b] float64
    const { x0, condition } = task.batch(size, g); // [b, L] int64, [b, L] bool
    return objective.loss(model, x0, t, g, condition).div(config.shards!);
  };
  const whole = () => {
    const t = sampleTimes(config.batch, objective.T, config.timeSampling, gen); // [B] float64
    const { x0, condition } = task.batch(config.batch, gen); // [B, L] int64, [B, L] bool
    return objective.loss(model, x0, t, gen, condition);
  };
  const loss = mine
    ? sumOver(
        accumulateStep(
          mine.map((k) => shard(k, config.batch / config.shards!)),
          opt,
          { clip: config.clip, lr, sync: () => syncGradients(opt.params, dp) },
        ),
        dp,
      )
    : optimiseStep(whole, opt, { clip: config.clip, lr });
  return { loss, lr };
}

/** SIGINT and SIGTERM noted, to stop at the end of a step; `dispose` stops listening. */
function stopOnSignals() {
  let stop = false;
  const on = () => {
    stop = true;
  };
  process.once('SIGINT', on);
  process.once('SIGTERM', on);
  return {
    stopped: () => stop,
    dispose: () => {
      process.removeListener('SIGINT', on);
      process.removeListener('SIGTERM', on);
    },
  };
}

/** After a step: progress, and at the log's and evaluation's steps the metrics row (rank 0 evaluates). */
function logStep(
  run: Run,
  loss: number,
  lr: number,
  window: { start: number },
  evalModel: Trainable,
): void {
  const { s, config: c } = run;
  s.window.loss += loss;
  s.window.steps++;
  const seconds = Math.max((performance.now() - window.start) / 1000, 1e-9);
  const tokensPerS = (s.window.steps * c.batch * run.task.length) / seconds;
  run.hooks.progress?.(s.step, c.steps, { loss, tokensPerS });
  const evalNow = s.step % c.evalEvery === 0 || s.step === c.steps;
  if (s.step % c.logEvery !== 0 && !evalNow) return;
  const ev = evalNow && run.lead ? evaluate(run, evalModel) : {};
  const train = { loss: s.window.loss / s.window.steps, lr, tokens_per_s: tokensPerS };
  run.metrics?.append(s.step, train, ev);
  s.window = { loss: 0, steps: 0 };
  window.start = performance.now();
}

/** The loop: steps until the end, a signal or hooks.stopAfter; logs, evaluates, checkpoints. */
async function trainClaimed(
  opened: OpenedRun,
  config: TrainConfig,
  task: TrainTask,
  lead: boolean,
  hooks: TrainHooks,
  dp: DataParallel,
): Promise<TrainResult> {
  const { dir, resume } = opened;
  const run = buildRun({ dir, task, lead, hooks, dp }, opened.saved ?? config, resume);
  restoreOrStart(run, resume);
  const { s } = run;
  const c = run.config;
  const evalModel = run.objective.build(new TorchGenerator(0)).eval();
  const signal = stopOnSignals();
  let stop = false;
  const losses: number[] = [];
  const first = s.step;
  const window = { start: performance.now() };
  try {
    while (
      s.step < c.steps &&
      !stop &&
      (hooks.stopAfter === undefined || s.step - first < hooks.stopAfter)
    ) {
      const { loss, lr } = trainStep(run);
      s.step++;
      if (lead) run.ema.update(s.step);
      losses.push(loss);
      logStep(run, loss, lr, window, evalModel);
      if (lead && s.step % c.checkpointEvery === 0) checkpoint(run);
      await turn(); // signals, finalisers
      stop = signal.stopped();
      if (dp.group) stop = sumOver(stop ? 1 : 0, dp) > 0; // every rank stops at the same step
    }
    if (lead) {
      checkpoint(run);
      await run.metrics!.plot();
    }
  } finally {
    signal.dispose();
  }
  return {
    step: s.step,
    losses,
    interrupted: s.step < c.steps, // by a signal or by stopAfter
    stoppedBy: s.step >= c.steps ? null : stop ? 'signal' : 'stopAfter',
    takeoff: s.takeoff,
    lastEval: s.lastEval,
  };
}
