// A run's config from a task's named sizes and process defaults (the vocabulary of
// process/choice.ts): the size gives the model, optimiser and loop; the process flags, or the
// task's defaults where absent, give the process (W only for sjd); steps also end the schedule,
// and a run extended on resume (withSteps) ends both at its new length.

import { type Precision, withPrecision } from '../model/precision.js';
import {
  type BlendShape,
  chooseProcess,
  isPixelProcess,
  type ProcessName,
} from '../process/index.js';
import type { ModelChoice, TrainConfig, TransformerChoice } from './config.js';

/** A size: everything of a config but the task, seed and process. */
export type Size = Omit<TrainConfig, 'seed' | 'process' | 'task'>;

/** A size whose network is the transformer. */
export type TransformerSize = Size & { model: TransformerChoice };

/** A task's process defaults, e.g. Sudoku: sjd with the `sudoku` W, linear noise. */
export interface ProcessDefaults {
  process: ProcessName;
  blend: string;
  bandwidth: number; // of the default W: sigma_W, or for images sigma_B of the blur B
  schedule: string;
  mean?: 'embedding' | 'value'; // images: W blends raw values, then the value embedding
  pixel?: boolean; // images: the pixel-space ddpm and bitdiff train too (src/pixel/)
}

/** What a user may choose (flags of `sjd train`). */
export interface ConfigOptions {
  size?: string;
  process?: ProcessName;
  blend?: string;
  /** W's bandwidth: sigma_W (--sigma-w), or sigma_B of the image blur B (--sigma-b) */
  bandwidth?: number;
  eta?: number;
  schedule?: string;
  seed?: number;
  steps?: number;
  evalEvery?: number;
  batch?: number;
  lr?: number; // peak learning rate (the floor of a cosine keeps its ratio to it)
  warmup?: number;
  /** the network's compute precision (model/precision.ts): float32 (default, left unwritten) or bfloat16 */
  precision?: Precision;
}

/**
 * The config of a run that ends at `steps`: the loop's budget and the end of its schedule. A
 * resumed run extended this way (`sjd train --resume --steps N`) keeps its steps taken; a
 * cosine schedule is stretched to decay to its floor at the new end, so from the resumed step on
 * the learning rate follows the longer curve (higher than where the shorter one stood), as if
 * the run had been started with N steps; warm-up and a constant rate are unchanged.
 */
export function withSteps<C extends TrainConfig>(config: C, steps: number): C {
  return { ...config, steps, lr: { ...config.lr, total: steps } };
}

export function presetConfig<S extends Size>(
  task: { name: string; label: string; sizes: Record<string, S>; defaults: ProcessDefaults },
  shape: (size: S) => BlendShape,
  o: ConfigOptions,
): S & TrainConfig {
  const name = o.size ?? 'cpu';
  const s = task.sizes[name];
  if (!s)
    throw new Error(
      `unknown ${task.label} size '${name}' (known: ${Object.keys(task.sizes).join(', ')})`,
    );
  const d = task.defaults;
  const processName = o.process ?? d.process;
  const total = o.steps ?? s.steps;
  // the pixel-space processes train the network as a regressor without anchors (config.ts)
  const { anchorDim, anchors, ...bare } = s.model as ModelChoice & { anchorDim?: number };
  const network = isPixelProcess(processName) ? bare : s.model;
  const model = withPrecision(network, o.precision);
  return {
    ...s,
    model,
    task: task.name,
    seed: o.seed ?? 0,
    process: chooseProcess({
      shape: shape(s),
      name: processName,
      blend: o.blend ?? (processName === 'sjd' ? d.blend : undefined),
      bandwidth: o.bandwidth ?? d.bandwidth,
      eta: o.eta,
      schedule: o.schedule ?? d.schedule,
      anchorDim: anchorDim ?? 0,
      mean: d.mean,
      anchors,
    }),
    steps: total,
    batch: o.batch ?? s.batch,
    lr: {
      ...s.lr,
      total,
      lr: o.lr ?? s.lr.lr,
      warmup: o.warmup ?? s.lr.warmup,
      ...(s.lr.minLr !== undefined && { minLr: (s.lr.minLr * (o.lr ?? s.lr.lr)) / s.lr.lr }),
    },
    evalEvery: o.evalEvery ?? s.evalEvery,
  };
}
