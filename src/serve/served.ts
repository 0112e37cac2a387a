// The served models, apart from where they come from (a folder for `sjd serve`, models.ts; URLs
// for the static site's worker, src/web/site-worker.ts): each task's model with the samplers its
// process runs and the settings its page starts from (those of the task's command, so the same
// seed gives the command's answer), a request's settings resolved against them, and what
// /api/models tells of each. Nothing here reads a file or speaks HTTP: a browser bundle holds it.

import { networkLength } from '../model/network.js';
import { precisionOf } from '../model/precision.js';
import type { SamplerName } from '../sampling/index.js';
import { getSampler, samplers, samplersFor } from '../sampling/index.js';
import type { TaskServing } from '../tasks/common/task-spec.js';
import type { TaskModel } from '../tasks/serving.js';
import { DIFFICULTY_CLASSES } from '../tasks/sudoku/puzzle/difficulty.js';
import { LIMITS } from './api-constants.js';
import type { Defaults, ModelsInfo, ServedTask, Settings, TaskInfo } from './api-types.js';
import { HttpError } from './http-error.js';

/** A task's model as it is served (with an image's geometry, the text's alphabet). */
export interface ServedModel extends TaskModel {
  source: string; // the weights file, as the API shows it
  samplers: SamplerName[]; // those the model's process can run
  defaults: WithSampler<Defaults>;
  length: number; // sites a sample
}

/** Settings of the API's answers (api-types.ts: a sampler is any string in JSON) as the server holds them. */
export type WithSampler<S> = S & { sampler: SamplerName };

/** Each task's model, or why it has none (by task name). */
export type Served = Record<string, ServedModel | { unavailable: string }>;

/** A task's loaded model (named `source` in the API) with its samplers and its page's defaults. */
export function servedModelOf(
  spec: TaskServing<TaskModel>,
  r: TaskModel,
  source: string,
): ServedModel {
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
  return { ...r, source, samplers, defaults, length: networkLength(r.model) };
}

/** The task's model, or null when it is unavailable. */
export const servedModel = (served: Served, task: string): ServedModel | null => {
  const m = served[task];
  return !m || 'unavailable' in m ? null : m;
};

/** The task's model; 404 with the reason when it has none. */
export function need(served: Served, task: string): ServedModel {
  const m = servedModel(served, task);
  if (!m)
    throw new HttpError(
      404,
      `${task} is unavailable: ${(served[task] as { unavailable: string } | undefined)?.unavailable ?? 'not served'}`,
    );
  return m;
}

/** The samplers a request may name: the model's, or (no model: 404 anyway) every one. */
export const servedSamplers = (m: ServedModel | { unavailable: string } | undefined): string[] =>
  m && 'samplers' in m ? m.samplers : [...samplers.keys()];

/** The request's settings, the model's defaults where it gives none (seed 0, as the commands). */
export function settingsOf(
  m: ServedModel,
  q: { sampler?: SamplerName; nfe?: number; temperature?: number; seed?: number },
): WithSampler<Settings> {
  const s = {
    sampler: q.sampler ?? m.defaults.sampler,
    nfe: q.nfe ?? m.defaults.nfe,
    temperature: q.temperature ?? m.defaults.temperature,
    topP: m.defaults.topP,
    grid: m.defaults.grid,
    seed: q.seed ?? 0,
  };
  const { nfePerStep } = getSampler(s.sampler);
  if (s.nfe < nfePerStep)
    throw new HttpError(
      400,
      `nfe: the ${s.sampler} sampler takes ${nfePerStep} NFE a step; got a budget of ${s.nfe}`,
    );
  return s;
}

/** What /api/models tells of a task: its model, samplers and defaults, or why it has none. */
function taskInfo(spec: TaskServing<TaskModel>, m: Served[string] | undefined): TaskInfo {
  if (!m || 'unavailable' in m) return { available: false, reason: m?.unavailable ?? 'not loaded' };
  return {
    available: true,
    source: m.source,
    process: m.process.config.name,
    precision: precisionOf(m.config.model),
    samplers: m.samplers,
    defaults: m.defaults,
    length: m.length,
    ...(m.geometry ? { geometry: m.geometry } : {}),
    ...(m.alphabet ? { alphabet: m.alphabet } : {}),
    ...(m.pieces ? { pieces: m.pieces } : {}),
    ...(spec.apiInfo as Partial<ServedTask>), // Sudoku: a solve's retries
  };
}

/**
 * GET /api/models: each task's model (those of `specs`), the request limits, the generated
 * puzzles' classes.
 */
export const modelsInfo = (
  specs: readonly TaskServing<TaskModel>[],
  served: Served,
): ModelsInfo => ({
  tasks: Object.fromEntries(
    specs.map((spec) => [spec.name, taskInfo(spec, served[spec.name])]),
  ) as ModelsInfo['tasks'],
  limits: LIMITS,
  difficulties: DIFFICULTY_CLASSES,
});
