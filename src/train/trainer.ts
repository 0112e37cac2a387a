// The training loop shared by every task and process (Alg. sjd-training; docs/design.md §2, §4),
// read top to bottom: build the objective (the process's loss, objective.ts) and the model, AdamW
// (decay by parameter role, build.ts), EMA, the metrics log; restore a checkpoint when resuming;
// then per step draw times and a batch, corrupt and take a step on the objective's loss
// (sjd-loss.ts or the pixel processes', step.ts), update the EMA, log, evaluate the EMA weights,
// checkpoint. One generator drives initialisation, data, times, corruption and dropout, and the
// checkpoint holds its state and the logging window, so a resumed run repeats the uninterrupted
// one bit for bit. SIGINT/SIGTERM stop at the end of a step with a checkpoint.
// A run whose config has `shards` is data-parallel (data-parallel.ts): the batch's shards draw
// from their own generators, the ranks of a process group share them and sum their gradients,
// every rank stops at the same step, and rank 0 alone writes the folder, evaluates and logs.
// Whether a run needs training at all (started, resumed or already scored) is train-to-end.ts's.
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { sampleTimes } from '../process/index.js';
import { AdamW, requireLibtorch, TorchGenerator } from '../torch/index.js';
import { makeDir, writeJsonAtomic } from '../util/atomic.js';
import { decayGroups } from './build.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { parseConfig, readConfig, type TrainConfig } from './config.js';
import {
  broadcastFromZero,
  type DataParallel,
  SINGLE,
  shardGenerator,
  shardsOf,
  sumOver,
  syncGradients,
} from './data-parallel.js';
import { EMA } from './ema.js';
import { checkRunData, writeManifest } from './manifest.js';
import { MetricsLog } from './metrics.js';
import { initWeights } from './model-io.js';
import { objectiveOf } from './objective.js';
import { loadOptimState, saveOptimState } from './optim-state.js';
import { withSteps } from './preset-config.js';
import { claimRunOrFail } from './run-claim.js';
import { checkRunFolder, RUN_FILES } from './run-folder.js';
import { learningRate } from './schedule.js';
import { accumulateStep, optimiseStep } from './step.js';
import type { TrainTask } from './task.js';

export interface TrainHooks {
  progress?: (step: number, total: number, info: { loss: number; tokensPerS: number }) => void;
  log?: (line: string) => void;
  /** stop after this many steps of this invocation (a requested stop, not an interrupt) */
  stopAfter?: number;
  /**
   * a resumed run's new end, beyond its config's: the run is extended (preset-config.ts
   * withSteps: a cosine schedule is stretched to end there) and its config.json says so
   */
  steps?: number;
}

export interface TrainResult {
  step: number;
  losses: number[]; // per step of this invocation
  interrupted: boolean; // stopped before the run's end (by a signal or by stopAfter)
  /** why a run stopped before its end: a signal (SIGINT, SIGTERM), or stopAfter as asked */
  stoppedBy: 'signal' | 'stopAfter' | null;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
}

/** What a checkpoint's state.json holds besides the tensors. */
interface LoopState {
  step: number;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
  optimSteps: Record<string, number>;
  window: { loss: number; steps: number }; // the logging window's running loss
}

/**
 * Trains the run in `dir` (resuming its checkpoint when `resume`), under a claim on the folder
 * (run-claim.ts): a run another live process is training is refused in one line. In a
 * data-parallel group rank 0 holds the claim for every rank.
 */
export async function train(
  dir: string,
  config: TrainConfig,
  task: TrainTask,
  resume: boolean,
  hooks: TrainHooks = {},
  dp: DataParallel = SINGLE,
): Promise<TrainResult> {
  requireLibtorch('training');
  const lead = dp.rank === 0;
  if (lead || resume) checkRunFolder(dir, resume);
  // a config made in code (flags, presets) is held to the schema a saved one is read by
  if (!resume) parseConfig(config, "the run's config");
  const release = lead ? claimRunOrFail(dir) : () => {};
  try {
    return await trainClaimed(dir, config, task, resume, lead, hooks, dp);
  } finally {
    release();
  }
}

async function trainClaimed(
  dir: string,
  config: TrainConfig,
  task: TrainTask,
  resume: boolean,
  lead: boolean,
  hooks: TrainHooks,
  dp: DataParallel,
): Promise<TrainResult> {
  if (resume) {
    config = readConfig(join(dir, RUN_FILES.config));
    checkRunData(dir, task.dataHash, config.data);
    if (hooks.steps !== undefined && hooks.steps > config.steps) {
      config = withSteps(config, hooks.steps);
      if (lead) writeJsonAtomic(join(dir, RUN_FILES.config), config);
    }
  }
  const mine = config.shards === undefined ? null : shardsOf(config.shards, dp);
  if (!mine && dp.worldSize > 1)
    throw new Error(`${dir}: the run has no shards (config.shards), so it trains in one process`);
  if (config.shards !== undefined && config.batch % config.shards !== 0)
    throw new Error(`batch ${config.batch} does not split into ${config.shards} shards`);

  // The objective, the model, its optimiser and EMA, all from the run's one generator.
  const gen = new TorchGenerator(config.seed);
  const objective = objectiveOf(task, config);
  const model = objective.build(gen);
  if (!resume && config.init) {
    // warm start: the source's weights replace the random init (the generator has drawn it all
    // the same, so the run's later draws do not depend on --init)
    const { from, sha256 } = config.init;
    const init = initWeights(from, task, config, model);
    if (sha256 !== undefined && sha256 !== init.sha256)
      throw new Error(`--init ${from}: its weights changed (sha256 ${init.sha256})`);
    config = { ...config, init: { from, sha256: init.sha256 } };
    model.loadStateDict(init.weights);
    hooks.log?.(`initialised from ${from} (sha256 ${init.sha256.slice(0, 12)})`);
  }
  const names = new Map(model.namedParameters().map(([k, p]) => [p, k]));
  const [decayed, undecayed] = decayGroups(model);
  const opt = new AdamW([{ params: decayed }, { params: undecayed, weightDecay: 0 }], {
    lr: config.lr.lr,
    weightDecay: config.weightDecay,
  });
  const ema = new EMA(model, config.ema);
  let s: LoopState = {
    step: 0,
    takeoff: null,
    lastEval: null,
    optimSteps: {},
    window: { loss: 0, steps: 0 },
  };

  if (resume) {
    const ck = loadCheckpoint(dir, ['model', 'ema', 'optim', 'rng']);
    model.loadStateDict(ck.tensors.model!);
    ema.load(ck.tensors.ema!);
    s = { ...s, ...(ck.state as Partial<LoopState>) };
    loadOptimState(opt, names, { tensors: ck.tensors.optim!, steps: s.optimSteps });
    gen.setState(ck.tensors.rng!.train!);
    hooks.log?.(`resumed ${dir} at step ${s.step}`);
  } else if (lead) {
    makeDir(dir); // only now: a config that cannot be built leaves no folder behind
    writeJsonAtomic(join(dir, RUN_FILES.config), config);
    writeManifest(dir, {
      seed: config.seed,
      dataHash: task.dataHash,
      task: task.name,
      process: config.process,
      model: config.model.size,
    });
  }
  broadcastFromZero(model.parameters(), dp); // every rank starts from rank 0's weights
  const metrics = lead ? new MetricsLog(dir, task.evalMetrics) : null;
  metrics?.truncateAfter(s.step); // a run started over (no checkpoint) keeps no earlier rows

  const checkpoint = () => {
    const optim = saveOptimState(opt, names);
    s.optimSteps = optim.steps;
    saveCheckpoint(dir, {
      tensors: {
        model: model.stateDict(),
        ema: ema.stateDict(),
        optim: optim.tensors,
        rng: { train: gen.getState() },
      },
      state: { ...s, config },
    });
  };

  const evalModel = objective.build(new TorchGenerator(0)).eval();
  const evaluate = (): Record<string, number> => {
    evalModel.loadStateDict(ema.stateDict());
    const ev = objective.evaluate(evalModel, s.step);
    s.lastEval = ev;
    if (s.takeoff === null && task.takeoffMetric && (ev[task.takeoffMetric] ?? 0) > 0)
      s.takeoff = s.step;
    const line = Object.entries(ev).map(([k, v]) => `${k} ${v.toFixed(4)}`);
    hooks.log?.(`step ${s.step} eval ${line.join(' ')}`);
    return ev;
  };

  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const losses: number[] = [];
  const first = s.step;
  let windowStart = performance.now();
  try {
    while (
      s.step < config.steps &&
      !stop &&
      (hooks.stopAfter === undefined || s.step - first < hooks.stopAfter)
    ) {
      // One step: times and a batch from the run's generator (or each shard's), corruption,
      // cross-entropy, AdamW on the global batch's gradient.
      const lr = learningRate(config.lr, s.step);
      const shard = (k: number, size: number) => () => {
        const g = shardGenerator(config.seed, s.step, k);
        const t = sampleTimes(size, objective.T, config.timeSampling, g); // [b] float64
        const { x0, condition } = task.batch(size, g); // [b, L] int64, [b, L] bool
        return objective.loss(model, x0, t, g, condition).div(config.shards!);
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
        : optimiseStep(
            () => {
              const t = sampleTimes(config.batch, objective.T, config.timeSampling, gen); // [B] float64
              const { x0, condition } = task.batch(config.batch, gen); // [B, L] int64, [B, L] bool
              return objective.loss(model, x0, t, gen, condition);
            },
            opt,
            { clip: config.clip, lr },
          );
      s.step++;
      if (lead) ema.update(s.step);
      losses.push(loss);
      s.window.loss += loss;
      s.window.steps++;

      // Progress, the log and evaluation, checkpoints.
      const seconds = Math.max((performance.now() - windowStart) / 1000, 1e-9);
      const tokensPerS = (s.window.steps * config.batch * task.length) / seconds;
      hooks.progress?.(s.step, config.steps, { loss, tokensPerS });
      const evalNow = s.step % config.evalEvery === 0 || s.step === config.steps;
      if (s.step % config.logEvery === 0 || evalNow) {
        const ev = evalNow && lead ? evaluate() : {};
        const train = { loss: s.window.loss / s.window.steps, lr, tokens_per_s: tokensPerS };
        metrics?.append(s.step, train, ev);
        s.window = { loss: 0, steps: 0 };
        windowStart = performance.now();
      }
      if (lead && s.step % config.checkpointEvery === 0) checkpoint();
      await turn(); // signals, finalisers
      if (dp.group) stop = sumOver(stop ? 1 : 0, dp) > 0; // every rank stops at the same step
    }
    if (lead) {
      checkpoint();
      await metrics!.plot();
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  return {
    step: s.step,
    losses,
    interrupted: s.step < config.steps, // by a signal or by stopAfter
    stoppedBy: s.step >= config.steps ? null : stop ? 'signal' : 'stopAfter',
    takeoff: s.takeoff,
    lastEval: s.lastEval,
  };
}
