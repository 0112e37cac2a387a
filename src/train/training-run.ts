// A run as the training loop (trainer.ts) holds it: its config (the saved one on resume, extended
// or warm-started), the objective, the model, AdamW (decay by parameter role, build.ts), EMA, the
// metrics log and the loop state; built from the run's one generator, restored from its
// checkpoint or started in a new folder with its config and manifest, and checkpointed.
import { join } from 'node:path';
import { AdamW, type Tensor, TorchGenerator } from '../torch/index.js';
import { makeDir, writeJsonAtomic } from '../util/atomic.js';
import { decayGroups } from './build.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import type { TrainConfig } from './config.js';
import { broadcastFromZero, type DataParallel, shardsOf } from './data-parallel.js';
import { EMA } from './ema.js';
import { checkRunData, writeManifest } from './manifest.js';
import { MetricsLog } from './metrics.js';
import { initWeights } from './model-io.js';
import { type Objective, objectiveOf, type Trainable } from './objective.js';
import { loadOptimState, saveOptimState } from './optim-state.js';
import { withSteps } from './preset-config.js';
import { RUN_FILES } from './run-folder.js';
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
  /** called once the run's config and data are checked, before its first line and step */
  ready?: () => void;
}

/** What a checkpoint's state.json holds besides the tensors. */
export interface LoopState {
  step: number;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
  optimSteps: Record<string, number>;
  window: { loss: number; steps: number }; // the logging window's running loss
}

/** A run being trained: its config, its parts, and its loop state. */
export interface Run {
  dir: string;
  config: TrainConfig;
  task: TrainTask;
  lead: boolean; // rank 0 (or the only process): writes the folder, evaluates, logs
  dp: DataParallel;
  hooks: TrainHooks;
  mine: number[] | null; // this rank's shards, or null for a run without shards
  gen: TorchGenerator; // the run's one generator
  objective: Objective;
  model: Trainable;
  names: Map<Tensor, string>; // parameter -> its name, for the optimiser's state
  opt: AdamW;
  ema: EMA;
  metrics: MetricsLog | null;
  s: LoopState;
}

/** The run's config: the saved one on resume (extended to hooks.steps), its shards checked. */
function runConfig(
  run: Pick<Run, 'dir' | 'task' | 'lead' | 'hooks' | 'dp'>,
  config: TrainConfig,
  resume: boolean,
) {
  const { dir, hooks } = run;
  if (resume) {
    checkRunData(dir, run.task.dataHash, config.data);
    if (hooks.steps !== undefined && hooks.steps > config.steps) {
      config = withSteps(config, hooks.steps);
      if (run.lead) writeJsonAtomic(join(dir, RUN_FILES.config), config);
    }
  }
  if (config.shards === undefined && run.dp.worldSize > 1)
    throw new Error(`${dir}: the run has no shards (config.shards), so it trains in one process`);
  if (config.shards !== undefined && config.batch % config.shards !== 0)
    throw new Error(`batch ${config.batch} does not split into ${config.shards} shards`);
  return config;
}

/**
 * A warm start: the source's weights replace the random init (the generator has drawn it all the
 * same, so the run's later draws do not depend on --init); the config records their sha256.
 */
function warmStart(config: TrainConfig, task: TrainTask, model: Trainable, hooks: TrainHooks) {
  const { from, sha256 } = config.init!;
  const init = initWeights(from, task, config, model);
  if (sha256 !== undefined && sha256 !== init.sha256)
    throw new Error(`--init ${from}: its weights changed (sha256 ${init.sha256})`);
  model.loadStateDict(init.weights);
  hooks.log?.(`initialised from ${from} (sha256 ${init.sha256.slice(0, 12)})`);
  return { ...config, init: { from, sha256: init.sha256 } };
}

/** The objective, the model, its optimiser and EMA, all from the run's one generator. */
export function buildRun(
  at: Pick<Run, 'dir' | 'task' | 'lead' | 'hooks' | 'dp'>,
  saved: TrainConfig,
  resume: boolean,
): Run {
  let config = runConfig(at, saved, resume);
  at.hooks.ready?.();
  const gen = new TorchGenerator(config.seed);
  const objective = objectiveOf(at.task, config);
  const model = objective.build(gen);
  if (!resume && config.init) config = warmStart(config, at.task, model, at.hooks);
  const [decayed, undecayed] = decayGroups(model);
  const opt = new AdamW([{ params: decayed }, { params: undecayed, weightDecay: 0 }], {
    lr: config.lr.lr,
    weightDecay: config.weightDecay,
  });
  return {
    ...at,
    config,
    mine: config.shards === undefined ? null : shardsOf(config.shards, at.dp),
    gen,
    objective,
    model,
    names: new Map(model.namedParameters().map(([k, p]) => [p, k])),
    opt,
    ema: new EMA(model, config.ema),
    metrics: null,
    s: { step: 0, takeoff: null, lastEval: null, optimSteps: {}, window: { loss: 0, steps: 0 } },
  };
}

/** Restores the checkpoint on resume; else (rank 0) writes the folder's config and manifest. */
export function restoreOrStart(run: Run, resume: boolean): void {
  const { dir, config } = run;
  if (resume) {
    const ck = loadCheckpoint(dir, ['model', 'ema', 'optim', 'rng']);
    run.model.loadStateDict(ck.tensors.model!);
    run.ema.load(ck.tensors.ema!);
    run.s = { ...run.s, ...(ck.state as Partial<LoopState>) };
    loadOptimState(run.opt, run.names, { tensors: ck.tensors.optim!, steps: run.s.optimSteps });
    run.gen.setState(ck.tensors.rng!.train!);
    run.hooks.log?.(`resumed ${dir} at step ${run.s.step}`);
  } else if (run.lead) {
    makeDir(dir); // only now: a config that cannot be built leaves no folder behind
    writeJsonAtomic(join(dir, RUN_FILES.config), config);
    writeManifest(dir, {
      seed: config.seed,
      dataHash: run.task.dataHash,
      task: run.task.name,
      process: config.process,
      model: config.model.size,
    });
  }
  broadcastFromZero(run.model.parameters(), run.dp); // every rank starts from rank 0's weights
  run.metrics = run.lead ? new MetricsLog(dir, run.task.evalMetrics) : null;
  run.metrics?.truncateAfter(run.s.step); // a run started over (no checkpoint) keeps no earlier rows
}

export function checkpoint(run: Run): void {
  const optim = saveOptimState(run.opt, run.names);
  run.s.optimSteps = optim.steps;
  saveCheckpoint(run.dir, {
    tensors: {
      model: run.model.stateDict(),
      ema: run.ema.stateDict(),
      optim: optim.tensors,
      rng: { train: run.gen.getState() },
    },
    state: { ...run.s, config: run.config },
  });
}
