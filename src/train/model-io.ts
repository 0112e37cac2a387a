// Trained models on disk: a run folder (config.json + checkpoint/ema.safetensors) or an
// exported model folder (config.json + model.safetensors, float16 storage allowed) — the form
// shipped in the repository. Loading rebuilds the denoiser and its process from the config.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Denoiser } from '../model/denoiser.js';
import type { SJDProcess } from '../process/index.js';
import {
  Generator,
  loadSafetensors,
  noGrad,
  saveSafetensors,
  type Tensor,
  tidy,
} from '../torch/index.js';
import { writeJsonAtomic } from './manifest.js';
import { buildModel, buildProcess, type TaskShape, type TrainConfig } from './trainer.js';

export interface LoadedModel {
  model: Denoiser;
  process: SJDProcess;
  config: TrainConfig;
  source: string;
}

function readConfig(dir: string): TrainConfig {
  const path = join(dir, 'config.json');
  if (!existsSync(path)) throw new Error(`${dir}: not a model or run folder (no config.json)`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as TrainConfig;
  } catch {
    throw new Error(`${path}: not valid JSON`);
  }
}

/**
 * The EMA weights of a run folder, or the weights of an exported model folder. `shape` is the
 * task's shape, or a function giving it from the saved config (e.g. the text sequence length).
 */
export function loadModel(
  dir: string,
  shape: TaskShape | ((config: TrainConfig) => TaskShape),
  expectTask?: string,
): LoadedModel {
  const config = readConfig(dir);
  const want = expectTask ?? (typeof shape === 'function' ? undefined : shape.name);
  if (want !== undefined && config.task !== want)
    throw new Error(`${dir} holds a ${config.task} model, not ${want}`);
  const task = typeof shape === 'function' ? shape(config) : shape;
  const file = existsSync(join(dir, 'model.safetensors'))
    ? join(dir, 'model.safetensors')
    : join(dir, 'checkpoint', 'ema.safetensors');
  if (!existsSync(file))
    throw new Error(`${dir}: no model.safetensors or checkpoint/ema.safetensors`);
  const model = buildModel(task, config.model, new Generator(0)).eval();
  const weights = loadSafetensors(file).tensors;
  tidy(() =>
    model.loadStateDict(
      Object.fromEntries(Object.entries(weights).map(([k, t]) => [k, t.to('float32')])),
    ),
  );
  return { model, process: buildProcess(task, config.process), config, source: file };
}

/** Writes config.json + model.safetensors (EMA weights, float16 by default) atomically. */
export function exportModel(
  runDir: string,
  outDir: string,
  shape: TaskShape | ((config: TrainConfig) => TaskShape),
  dtype: 'float16' | 'float32' = 'float16',
  expectTask?: string,
): string {
  const { model, config } = loadModel(runDir, shape, expectTask);
  const tmp = `${outDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const weights: Record<string, Tensor> = noGrad(() =>
    Object.fromEntries(Object.entries(model.stateDict()).map(([k, t]) => [k, t.to(dtype)])),
  );
  saveSafetensors(join(tmp, 'model.safetensors'), weights, { format: 'sjd-model', dtype });
  writeJsonAtomic(join(tmp, 'config.json'), config);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(tmp, outDir);
  return join(outDir, 'model.safetensors');
}
