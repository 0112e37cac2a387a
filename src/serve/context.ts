// What the routes of `sjd serve` share: the served models, the job queue, the deadlines, the
// per-client stream limit and the shared batches of Sudoku's solves (sudoku-batch.ts), and a
// request's sampling settings resolved against its model's defaults (those of the matching
// command, so the same seed gives the command's answer).
import { getSampler, samplers } from '../sampling/index.js';
import type { Settings } from './api-types.js';
import type { Deadlines } from './deadlines.js';
import { HttpError } from './errors.js';
import type { JobQueue } from './job-queue.js';
import { type Served, type ServedModel, servedModel } from './models.js';
import type { StreamClients } from './stream-clients.js';
import type { SudokuBatches } from './sudoku-batch.js';

export interface ServeContext {
  served: Served;
  queue: JobQueue;
  deadlines: Deadlines;
  streams: StreamClients;
  sudokuBatches: SudokuBatches;
}

/**
 * A job route's first hook: with the queue full, 503 at once, before the body is read and
 * checked (a busy server spends next to nothing on the requests it refuses).
 */
export const refuseWhenFull = (ctx: ServeContext) => async () => {
  if (ctx.queue.full()) throw ctx.queue.refusal();
};

/** The task's model; 404 with the reason when it has none. */
export function need(ctx: ServeContext, task: string): ServedModel {
  const m = servedModel(ctx.served, task);
  if (!m)
    throw new HttpError(
      404,
      `${task} is unavailable: ${(ctx.served[task] as { unavailable: string }).unavailable}`,
    );
  return m;
}

/** The samplers a request may name: the model's, or (no model: 404 anyway) every one. */
export const servedSamplers = (m: ServedModel | { unavailable: string }): string[] =>
  'samplers' in m ? m.samplers : [...samplers.keys()];

/** The request's settings, the model's defaults where it gives none (seed 0, as the commands). */
export function settingsOf(
  m: ServedModel,
  q: { sampler?: string; nfe?: number; temperature?: number; seed?: number },
): Settings {
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
