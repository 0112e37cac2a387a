// The models `sjd serve` serves, found in one folder (default: the package's models/): each task
// of the registry in its own subfolder, `sudoku/`, `text/`, `image/` (a run folder or an exported
// model each), loaded as the task's commands load it. A task whose folder holds no model is
// unavailable, with the reason, and so is one whose model does not load: the page and
// /api/models say so; neither stops the server. A models folder that is missing or is a file
// stops it at start, in one line. What the API shows names no absolute path: the
// weights file and the reasons give paths relative to the models folder (or a file's name).
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { networkLength } from '../model/network.js';
import { samplersFor } from '../sampling/index.js';
import { type TaskModel, type TaskSpec, taskSpecs } from '../tasks/registry.js';
import { MODEL_FILES } from '../train/index.js';
import type { Defaults } from './api-types.js';

/** The package's models/ folder. */
export const SHIPPED_MODELS = new URL('../../../models', import.meta.url).pathname;

/** A task's model as the registry loads it (with an image's geometry, the text's alphabet). */
export interface ServedModel extends TaskModel {
  source: string; // the weights file, relative to the models folder
  samplers: string[]; // those the model's process can run
  defaults: Defaults;
  length: number; // sites a sample
}

/** Each registered task's model, or why it has none (by task name). */
export type Served = Record<string, ServedModel | { unavailable: string }>;

/** A task's model from `dir` as the registry loads it, with the settings its page starts from. */
function load(spec: TaskSpec, dir: string): ServedModel {
  const r = spec.load(dir);
  const sampler = spec.sampling.sampler(r.process);
  const { rules } = spec.sampling;
  const defaults = {
    sampler,
    nfe: spec.sampling.nfe(sampler),
    temperature: spec.sampling.temperature,
    topP: spec.sampling.topP,
    grid: spec.sampling.grid,
    ...(rules === undefined ? {} : { rules }),
  };
  const samplers = samplersFor(r.process, rules !== undefined);
  return { ...r, samplers, defaults, length: networkLength(r.model) };
}

/** `path` as the API shows it: relative to the models folder `dir`, or its name when outside. */
function shownPath(dir: string, path: string): string {
  const r = relative(resolve(dir), resolve(path));
  return r === '' || r.startsWith('..') || isAbsolute(r) ? basename(path) : r;
}

/** An absolute path in a message (after a space, a quote, a bracket or '='), up to a delimiter. */
const ABSOLUTE_PATH = /(?<=^|[\s'"`([=])\/[^\s'"`()[\],:]*/g;

/** A loader's one-line message with its absolute paths shown as shownPath shows them. */
const redacted = (dir: string, message: string): string =>
  message.split('\n')[0]!.replace(ABSOLUTE_PATH, (p) => shownPath(dir, p));

/** Each task's model from `<dir>/<task>`, or why it is unavailable. */
export function loadServedModels(dir: string): Served {
  if (!existsSync(dir)) throw new Error(`models folder ${dir}: no such folder`);
  if (!statSync(dir).isDirectory())
    throw new Error(`models folder ${dir} is a file, not a folder of models`);
  const out: Served = {};
  for (const spec of taskSpecs()) {
    const task = spec.name;
    const path = join(dir, task);
    if (!existsSync(join(path, MODEL_FILES.config))) {
      out[task] = { unavailable: `no ${task} model in ${task}/` };
      continue;
    }
    try {
      const m = load(spec, path);
      out[task] = { ...m, source: shownPath(dir, m.source) };
    } catch (e) {
      out[task] = { unavailable: `${task}/: ${redacted(dir, (e as Error).message)}` };
    }
  }
  return out;
}

/** The task's model, or null when it is unavailable. */
export const servedModel = (served: Served, task: string): ServedModel | null => {
  const m = served[task];
  return !m || 'unavailable' in m ? null : m;
};
