// Trained models on disk (run-folder.ts has the layouts): a run folder (its EMA weights) or an
// exported model folder (float16 storage allowed), the form shipped in the repository. Loading
// validates the config (config.ts) and rebuilds the network and its process (the SJD classifier, or
// the regressor of the pixel-space ddpm and bitdiff); model-export.ts writes a run as a model.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PrecisionSetting, resolvePrecision } from '../model/auto-precision.js';
import { Denoiser, type Network } from '../model/network.js';
import { withPrecision } from '../model/precision.js';
import { UNetRegressor } from '../model/unet-regressor.js';
import type { PixelDiffusion } from '../pixel/index.js';
import { isPixelProcess, type SJDProcess } from '../process/index.js';
import {
  decodeSafetensors,
  loadSafetensors,
  type Tensor,
  TorchGenerator,
  tidy,
} from '../torch/index.js';
import { withArticle } from '../util/article.js';
import { buildModel, buildPixelDiffusion, buildProcess, buildRegressor } from './build.js';
import { parseConfig, readConfig, type TrainConfig } from './config.js';
import type { Trainable } from './objective.js';
import { checkpointDir, isModelFolder, MODEL_FILES, RUN_FILES } from './run-folder.js';
import { deployed } from './sjd-loss.js';
import type { TaskShape } from './task.js';

export interface LoadedModel {
  model: Network;
  process: SJDProcess;
  config: TrainConfig;
  source: string;
}

/** A task's shape, or a function giving it from the saved config (e.g. the text length). */
export type ShapeOf = TaskShape | ((config: TrainConfig) => TaskShape);

/** The weights file of a model folder or run folder. */
function weightsFile(dir: string): string {
  if (isModelFolder(dir)) return join(dir, MODEL_FILES.weights);
  const ck = checkpointDir(dir);
  if (ck && existsSync(join(ck, 'ema.safetensors'))) return join(ck, 'ema.safetensors');
  throw new Error(`${dir}: no ${MODEL_FILES.weights} or ${RUN_FILES.checkpoint}/ema.safetensors`);
}

/**
 * A warm start (train --init): the weights of a run (EMA) or model folder for a new run's
 * network `into`, refused unless the task is the same and every parameter fits by name and
 * shape (weight-tied loops add none: a network may start from one with fewer loops); with the
 * sha256 of the weights file, recorded in the new run's config.
 */
export function initWeights(
  dir: string,
  shape: ShapeOf,
  config: TrainConfig,
  into: Trainable,
): { weights: Record<string, Tensor>; sha256: string } {
  const src = loadNetwork(dir, shape, config.task);
  const have = src.model.stateDict();
  const want = into.stateDict();
  const misfit = [
    ...Object.entries(want)
      .filter(([k, t]) => !have[k] || have[k]!.shape.join() !== t.shape.join())
      .map(([k, t]) => `${k} [${t.shape}] vs ${have[k] ? `[${have[k]!.shape}]` : 'none'}`),
    ...Object.keys(have)
      .filter((k) => !want[k])
      .map((k) => `${k} not in this network`),
  ];
  if (misfit.length > 0)
    throw new Error(`--init ${dir}: its network does not fit this run's (${misfit[0]})`);
  const sha256 = createHash('sha256').update(readFileSync(src.source)).digest('hex');
  return { weights: have, sha256 };
}

/** Refuses weights holding NaN or Inf, naming the file and the first such tensor. */
export function checkFinite(weights: Record<string, Tensor>, file: string): void {
  for (const [name, t] of Object.entries(weights)) {
    if (!['float32', 'float64', 'float16', 'bfloat16'].includes(t.dtype)) continue;
    if (tidy(() => t.isfinite().all().item()) === 0)
      throw new Error(`${file}: tensor '${name}' holds NaN or Inf values`);
  }
}

/** A saved network of any process (the SJD classifier, or the regressor of ddpm and bitdiff). */
export interface LoadedNetwork {
  model: Trainable;
  config: TrainConfig;
  task: TaskShape;
  source: string; // the weights file
}

/**
 * The EMA weights of a run folder, or the weights of an exported model folder, in its network;
 * at `precision` where given ('auto' resolved for its task, auto-precision.ts; written into the
 * config it returns), else at the model's own.
 */
export function loadNetwork(
  dir: string,
  shape: ShapeOf,
  expectTask?: string,
  precision?: PrecisionSetting,
): LoadedNetwork {
  if (!existsSync(join(dir, MODEL_FILES.config)))
    throw new Error(`${dir}: not a model or run folder (no ${MODEL_FILES.config})`);
  const saved = readConfig(join(dir, MODEL_FILES.config));
  const file = weightsFile(dir);
  // the task is checked before the weights are read
  taskOf(saved, shape, dir, expectTask);
  return networkOf(saved, loadSafetensors(file).tensors, shape, file, expectTask, precision);
}

/** The task shape of a saved config, refused (naming `where`) when it is not `expectTask`. */
function taskOf(
  config: TrainConfig,
  shape: ShapeOf,
  where: string,
  expectTask?: string,
): TaskShape {
  const want = expectTask ?? (typeof shape === 'function' ? undefined : shape.name);
  if (want !== undefined && config.task !== want)
    throw new Error(`${where} holds ${withArticle(config.task)} model, not ${want}`);
  return typeof shape === 'function' ? shape(config) : shape;
}

/**
 * A network from its saved config and weights (a model folder's two files, read from disk or,
 * in a browser, fetched): built, its weights checked finite and loaded; `source` names them in
 * errors.
 */
export function networkOf(
  saved: TrainConfig,
  weights: Record<string, Tensor>,
  shape: ShapeOf,
  source: string,
  expectTask?: string,
  precision?: PrecisionSetting,
): LoadedNetwork {
  const at =
    precision === undefined ? undefined : resolvePrecision(precision, saved.task).precision;
  const config = { ...saved, model: withPrecision(saved.model, at) };
  const task = taskOf(config, shape, source, expectTask);
  const gen = new TorchGenerator(0);
  const model = (
    isPixelProcess(config.process.name)
      ? buildRegressor(task, config.model, buildPixelDiffusion(task, config.process), gen)
      : buildModel(task, config.model, gen, config.process)
  ).eval();
  checkFinite(weights, source);
  tidy(() =>
    model.loadStateDict(
      Object.fromEntries(Object.entries(weights).map(([k, t]) => [k, t.to('float32')])),
    ),
  );
  return { model, config, task, source };
}

/**
 * A model folder's two files as bytes (config.json's text, model.safetensors): the model and
 * its process, as loadModel gives them from disk (a browser's fetch, a bundled model).
 */
export function modelFromFiles(
  configText: string,
  weights: Uint8Array,
  shape: ShapeOf,
  source: string,
  expectTask?: string,
  o: LoadOptions = {},
): LoadedModel {
  let raw: unknown;
  try {
    raw = JSON.parse(configText);
  } catch {
    throw new Error(`${source}: ${MODEL_FILES.config} is not valid JSON`);
  }
  const saved = parseConfig(raw, `${source}/${MODEL_FILES.config}`);
  const tensors = decodeSafetensors(weights, `${source}/${MODEL_FILES.weights}`).tensors;
  return classifierOf(networkOf(saved, tensors, shape, source, expectTask, o.precision), source, o);
}

/** Options of loading a model: `uniformHazard` samples a learned-hazard model with w = 1. */
export interface LoadOptions {
  uniformHazard?: boolean;
  /** the compute precision to sample at (auto-precision.ts), else the model's own */
  precision?: PrecisionSetting;
}

/**
 * The classifier and SJD process of a saved model (not the pixel-space ddpm and bitdiff). A
 * network that learned its hazard weights gives them to the process ("deployed",
 * tab:e2e-text8), unless `uniformHazard` (the "w = 1 sampler" read-out); that option on any other
 * model drops its frozen weights too.
 */
export function loadModel(
  dir: string,
  shape: ShapeOf,
  expectTask?: string,
  o: LoadOptions = {},
): LoadedModel {
  return classifierOf(loadNetwork(dir, shape, expectTask, o.precision), dir, o);
}

/** A loaded network as an SJD classifier with its process (refusing a pixel-space regressor). */
function classifierOf(r: LoadedNetwork, where: string, o: LoadOptions): LoadedModel {
  if (r.model instanceof UNetRegressor)
    throw new Error(
      `${where}: a ${r.config.process.name} model (a Gaussian diffusion on pixel values), not an SJD classifier`,
    );
  const proc = buildProcess(r.task, r.config.process);
  const process = o.uniformHazard ? proc.withAnchorWeights(undefined) : deployed(r.model, proc);
  return { model: r.model, process, config: r.config, source: r.source };
}

/** A saved model of a pixel-space process (ddpm, bitdiff): its regressor and its process. */
export interface LoadedPixelModel {
  model: UNetRegressor;
  diffusion: PixelDiffusion;
  config: TrainConfig;
  source: string;
}

export function loadPixelModel(
  dir: string,
  shape: ShapeOf,
  expectTask?: string,
  precision?: PrecisionSetting,
): LoadedPixelModel {
  const r = loadNetwork(dir, shape, expectTask, precision);
  if (!(r.model instanceof UNetRegressor))
    throw new Error(`${dir}: a ${r.config.process.name} model, not a pixel-space one`);
  return {
    model: r.model,
    diffusion: buildPixelDiffusion(r.task, r.config.process),
    config: r.config,
    source: r.source,
  };
}

/** loadModel for the tasks whose network is the transformer (Sudoku, text). */
export function loadTransformer(
  dir: string,
  shape: ShapeOf,
  expectTask?: string,
  o: LoadOptions = {},
): LoadedModel & { model: Denoiser } {
  const r = loadModel(dir, shape, expectTask, o);
  if (!(r.model instanceof Denoiser))
    throw new Error(`${dir}: holds an image U-Net, not a sequence transformer`);
  return { ...r, model: r.model };
}
