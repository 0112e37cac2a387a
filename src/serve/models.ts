// The models `sjd serve` serves (issue #15), found in one folder (default: the package's
// models/): Sudoku in `sudoku/` (loaded as `sjd solve` loads it), text in `text/`, images in
// `image/` (a run folder or an exported model each). A task whose folder holds no model is
// unavailable, with the reason, and so is one whose model does not load: the page and
// /api/models say so; neither stops the server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Network, networkLength } from '../model/network.js';
import type { SJDProcess } from '../process/index.js';
import { defaultSampler, samplersFor } from '../sample/index.js';
import { type ImageGeometry, loadImageModel } from '../tasks/image/index.js';
import {
  DEFAULT_SUDOKU_SAMPLER,
  defaultSudokuNfe,
  loadSudokuModel,
} from '../tasks/sudoku/index.js';
import { ALPHABET, textShape } from '../tasks/text/index.js';
import { loadTransformer, MODEL_FILES } from '../train/index.js';

export const TASKS = ['sudoku', 'text', 'image'] as const;
export type TaskName = (typeof TASKS)[number];

/** The package's models/ folder. */
export const SHIPPED_MODELS = new URL('../../../models', import.meta.url).pathname;

/** The settings a task's page starts from (those of its command: sjd solve, sjd sample). */
export interface Defaults {
  sampler: string;
  nfe: number;
  temperature: number;
}

export interface ServedModel {
  model: Network;
  process: SJDProcess;
  source: string; // the weights file
  samplers: string[]; // those the model's process can run
  defaults: Defaults;
  length: number; // sites a sample
  geometry?: ImageGeometry; // images
  alphabet?: string; // text: the character of each token
}

export type Served = { [T in TaskName]: ServedModel | { unavailable: string } };

function load(task: TaskName, dir: string): ServedModel {
  if (task === 'sudoku') {
    const r = loadSudokuModel(dir);
    const defaults = {
      sampler: DEFAULT_SUDOKU_SAMPLER,
      nfe: defaultSudokuNfe(DEFAULT_SUDOKU_SAMPLER),
      temperature: 1,
    };
    return { ...r, samplers: samplersFor(r.process), defaults, length: networkLength(r.model) };
  }
  const r = task === 'text' ? loadTransformer(dir, textShape, 'text') : loadImageModel(dir);
  const defaults = {
    sampler: defaultSampler(r.process),
    nfe: 64,
    temperature: task === 'text' ? 0.7 : 1,
  };
  const geometry = 'geometry' in r ? r.geometry : undefined;
  return {
    ...r,
    samplers: samplersFor(r.process),
    defaults,
    length: networkLength(r.model),
    geometry,
    alphabet: task === 'text' ? ALPHABET : undefined,
  };
}

/** Each task's model from `<dir>/<task>`, or why it is unavailable. */
export function loadServedModels(dir: string): Served {
  const out = {} as Served;
  for (const task of TASKS) {
    const path = join(dir, task);
    if (!existsSync(join(path, MODEL_FILES.config))) {
      out[task] = { unavailable: `no ${task} model in ${path}` };
      continue;
    }
    try {
      out[task] = load(task, path);
    } catch (e) {
      out[task] = { unavailable: `${path}: ${(e as Error).message.split('\n')[0]}` };
    }
  }
  return out;
}

/** The task's model, or null when it is unavailable. */
export const servedModel = (served: Served, task: TaskName): ServedModel | null => {
  const m = served[task];
  return 'unavailable' in m ? null : m;
};
