// The training loop shared by every task (DESIGN.md §2, §4): AdamW (libtorch) with warmup and
// cosine decay, gradient clipping, weight decay on matrices only, EMA; SJD corruption and
// cross-entropy (sjd-loss.ts); periodic evaluation of the EMA weights with the takeoff step
// recorded; metrics.csv and a plot; checkpoints every N steps and on SIGINT/SIGTERM; exact
// resume (weights, EMA, optimiser, generator state, step). One generator drives
// initialisation, data, times, corruption and dropout, so its saved state makes resume exact.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { Denoiser, type DenoiserConfig } from '../model/denoiser.js';
import {
  type Blend,
  type HazardSpec,
  makeProcess,
  type SJDProcess,
  sampleTimes,
  type TimeSampling,
  type VPConfig,
} from '../process/index.js';
import { AdamW, Generator, type Tensor } from '../torch/index.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { EMA } from './ema.js';
import { writeJsonAtomic, writeManifest } from './manifest.js';
import { MetricsLog } from './metrics.js';
import { type LrSchedule, learningRate } from './schedule.js';
import { sjdLoss } from './sjd-loss.js';
import { optimiseStep } from './step.js';

export interface ProcessChoice {
  preset: 'masked' | 'continuous' | 'hybrid' | 'sjd';
  kernel?: string; // task-specific W name (sjd)
  sigmaW?: number;
  eta?: number;
  hazard?: HazardSpec;
  vp?: VPConfig; // the noise schedule of unstuck sites (default: linear beta)
}

export interface TrainConfig {
  task: string;
  seed: number;
  process: ProcessChoice;
  model: Omit<DenoiserConfig, 'length' | 'classes' | 'structure'> & {
    name: string;
    structure: boolean;
  };
  batch: number;
  steps: number;
  lr: LrSchedule;
  weightDecay: number;
  clip: number;
  ema: number;
  timeSampling: TimeSampling;
  logEvery: number;
  evalEvery: number;
  checkpointEvery: number;
}

/** What a task gives the trainer. */
export interface TrainTask {
  readonly name: string;
  readonly length: number;
  readonly classes: number;
  readonly structure?: number[][];
  readonly dataHash: string;
  readonly evalMetrics: string[];
  blend(kernel: string, sigma: number): Blend;
  batch(size: number, gen: Generator): { x0: Tensor; condition?: Tensor };
  evaluate(model: Denoiser, proc: SJDProcess, step: number): Record<string, number>;
}

/** What building a model and its process needs of a task (loading a trained model needs no data). */
export type TaskShape = Pick<TrainTask, 'name' | 'length' | 'classes' | 'structure' | 'blend'>;

export interface TrainHooks {
  progress?: (step: number, total: number, info: { loss: number; tokensPerS: number }) => void;
  log?: (line: string) => void;
  /** stop after this many steps of this invocation (tests of resume) */
  stopAfter?: number;
}

export interface TrainResult {
  step: number;
  losses: number[]; // per step of this invocation
  interrupted: boolean;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
}

export function buildProcess(task: TaskShape, p: ProcessChoice): SJDProcess {
  const blend =
    p.preset === 'sjd' && p.kernel && p.kernel !== 'identity'
      ? task.blend(p.kernel, p.sigmaW ?? 1.5)
      : undefined;
  return makeProcess(p.preset, {
    length: task.length,
    blend,
    eta: p.preset === 'sjd' ? p.eta : undefined,
    hazard: p.hazard,
    vp: p.vp,
  });
}

export function buildModel(task: TaskShape, c: TrainConfig['model'], gen: Generator): Denoiser {
  const { name: _, structure, ...rest } = c;
  return new Denoiser(
    {
      ...rest,
      length: task.length,
      classes: task.classes,
      structure: structure ? task.structure : undefined,
    },
    gen,
  );
}

const noDecay = (name: string, p: Tensor) =>
  p.ndim < 2 ||
  name.startsWith('anchors') ||
  name.endsWith('pos.weight') ||
  name.startsWith('structure');

/** The step a run folder's checkpoint holds (0 when there is none). */
export function finishedStep(dir: string): number {
  const p = join(dir, 'checkpoint', 'state.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')).step as number) : 0;
}

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

/** Refuses to start over an existing run, or to resume a folder without a checkpoint. */
export function checkRunFolder(dir: string, resume: boolean): void {
  const ckptDir = join(dir, 'checkpoint');
  const has =
    existsSync(join(ckptDir, 'state.json')) || existsSync(join(`${ckptDir}.old`, 'state.json'));
  if (resume && !has) throw new Error(`--resume: no checkpoint in ${dir}`);
  if (!resume && has) {
    throw new Error(
      `${dir} already holds a run; pass --resume to continue it or choose another --out`,
    );
  }
}

export async function train(
  dir: string,
  config: TrainConfig,
  task: TrainTask,
  resume: boolean,
  hooks: TrainHooks = {},
): Promise<TrainResult> {
  checkRunFolder(dir, resume);
  const ckptDir = join(dir, 'checkpoint');
  if (resume) config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as TrainConfig;
  mkdirSync(dir, { recursive: true });
  const gen = new Generator(config.seed);
  const proc = buildProcess(task, config.process);
  const model = buildModel(task, config.model, gen);
  const named = model.namedParameters();
  const opt = new AdamW(
    [
      { params: named.filter(([k, p]) => !noDecay(k, p)).map(([, p]) => p) },
      { params: named.filter(([k, p]) => noDecay(k, p)).map(([, p]) => p), weightDecay: 0 },
    ],
    { lr: config.lr.lr, weightDecay: config.weightDecay },
  );
  const order = new Map(named.map(([k, p]) => [p, k]));
  const ema = new EMA(model, config.ema);
  const metrics = new MetricsLog(dir, task.evalMetrics);
  let step = 0;
  let takeoff: number | null = null;
  let lastEval: Record<string, number> | null = null;
  if (resume) {
    const ck = loadCheckpoint(ckptDir, ['model', 'ema', 'optim', 'rng']);
    model.loadStateDict(ck.tensors.model!);
    ema.load(ck.tensors.ema!);
    const st = ck.tensors.optim!;
    const steps = ck.state.optimSteps as Record<string, number>;
    opt.setState(
      opt.params.map((p) => {
        const k = order.get(p)!;
        return k in steps
          ? { step: steps[k]!, exp_avg: st[`${k}.exp_avg`]!, exp_avg_sq: st[`${k}.exp_avg_sq`]! }
          : null;
      }),
    );
    gen.setState(ck.tensors.rng!.train!);
    step = ck.state.step as number;
    takeoff = (ck.state.takeoff as number | null) ?? null;
    lastEval = (ck.state.lastEval as Record<string, number> | null) ?? null;
    metrics.truncateAfter(step);
    hooks.log?.(`resumed ${dir} at step ${step}`);
  } else {
    writeJsonAtomic(join(dir, 'config.json'), config);
    writeManifest(dir, {
      seed: config.seed,
      dataHash: task.dataHash,
      task: task.name,
      process: config.process,
      model: config.model.name,
    });
  }

  const checkpoint = () => {
    const optimSteps: Record<string, number> = {};
    const optim: Record<string, Tensor> = {};
    opt.getState().forEach((s, i) => {
      if (s === null) return;
      const k = order.get(opt.params[i]!)!;
      optimSteps[k] = s.step as number;
      optim[`${k}.exp_avg`] = s.exp_avg as Tensor;
      optim[`${k}.exp_avg_sq`] = s.exp_avg_sq as Tensor;
    });
    saveCheckpoint(ckptDir, {
      tensors: {
        model: model.stateDict(),
        ema: ema.stateDict(),
        optim,
        rng: { train: gen.getState() },
      },
      state: { step, takeoff, lastEval, optimSteps, config },
    });
  };

  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const losses: number[] = [];
  const evalModel = buildModel(task, config.model, new Generator(0)).eval();
  const evaluate = () => {
    evalModel.loadStateDict(ema.stateDict());
    lastEval = task.evaluate(evalModel, proc, step);
    if (takeoff === null && (lastEval.board_accuracy ?? 0) > 0) takeoff = step;
    hooks.log?.(
      `step ${step} eval ${Object.entries(lastEval)
        .map(([k, v]) => `${k} ${v.toFixed(4)}`)
        .join(' ')}`,
    );
    return lastEval;
  };
  let windowLoss = 0;
  let windowSteps = 0;
  let windowStart = performance.now();
  try {
    const first = step;
    while (
      step < config.steps &&
      !stop &&
      (hooks.stopAfter === undefined || step - first < hooks.stopAfter)
    ) {
      const lr = learningRate(config.lr, step);
      const loss = optimiseStep(
        () => {
          const t = sampleTimes(config.batch, proc.T, config.timeSampling, gen);
          const { x0, condition } = task.batch(config.batch, gen);
          return sjdLoss(model, proc, x0, t, gen, condition);
        },
        opt,
        { clip: config.clip, lr },
      );
      step++;
      ema.update(step);
      losses.push(loss);
      windowLoss += loss;
      windowSteps++;
      const elapsed = (performance.now() - windowStart) / 1000;
      const tokensPerS = (windowSteps * config.batch * task.length) / Math.max(elapsed, 1e-9);
      hooks.progress?.(step, config.steps, { loss, tokensPerS });
      const evalNow = step % config.evalEvery === 0 || step === config.steps;
      if (step % config.logEvery === 0 || evalNow) {
        const ev = evalNow ? evaluate() : {};
        metrics.append(step, { loss: windowLoss / windowSteps, lr, tokens_per_s: tokensPerS }, ev);
        windowLoss = 0;
        windowSteps = 0;
        windowStart = performance.now();
      }
      if (step % config.checkpointEvery === 0) checkpoint();
      await turn(); // signals, finalisers
    }
    checkpoint();
    await metrics.plot();
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  return { step, losses, interrupted: stop, takeoff, lastEval };
}
