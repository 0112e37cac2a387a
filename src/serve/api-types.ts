// The JSON answers of `sjd serve`'s API, written once for the server and its page: a stream's
// events (`step`, `done`, `error`), a solve, a text or image sample, a generated puzzle,
// /api/models, /health, and the body of every refusal. Types only, taking types only from modules
// without imports (api-constants.ts, job-queue.ts), so that the page's build (web/src/api.ts) reads
// the declarations tsc emits for this file without node's, fastify's or libtorch's types. The
// server's code that builds each answer is typed by these (step-event.ts, sse.ts, errors.ts,
// routes-*.ts): the compiler checks that what the server sends is what the page reads.
import type { GRIDS, LIMITS, TASKS } from './api-constants.js';
import type { QueueStats } from './job-queue.js';

export type TaskName = (typeof TASKS)[number];

/**
 * What a stream sends for one sampler step (the driver's TrajectoryStep in JSON, step-event.ts):
 * per site of the batch, the committed token (-1 while active), the last classifier pass's
 * argmax and its tempered probability, and |y|; with the time, the step's index and the NFE
 * spent so far.
 */
export interface StepEvent {
  step: number; // 0: the prior, k: after the k-th sampler step
  t: number; // the forward time (adaptive samplers: the board's)
  nfe: number; // classifier evaluations so far
  tokens: number[]; // [B * L] committed tokens, -1 where active
  argmax: number[]; // [B * L] the classifier's most probable token (-1 before its first pass)
  confidence: number[]; // [B * L] its probability
  y_norm: number[]; // [B * L] |y_i|
}

/** A refused or failed request's body (every 4xx and 5xx), and a stream's `error` event. */
export interface ErrorAnswer {
  error: string; // one line
}

/** A stream's events: each step as it is made, then the answer or why the run failed. */
export type StreamEvent<Answer> =
  | { event: 'step'; data: StepEvent }
  | { event: 'done'; data: Answer }
  | { event: 'error'; data: ErrorAnswer };

/** The settings a task's page starts from (those of its command: sjd solve, sjd sample). */
export interface Defaults {
  sampler: string; // a registered sampler (sampling/registry.ts SamplerName; JSON: any string)
  nfe: number;
  temperature: number;
  topP: number;
  grid: (typeof GRIDS)[number];
  rules?: boolean; // Sudoku: whether a solve uses the rules (its searching samplers need them)
}

/** A run's sampling settings, the model's defaults filled in (seed 0, as the commands). */
export interface Settings extends Defaults {
  seed: number;
}

/** A solve's settings: the sampling ones, its time grid, its retries and the rules. */
export interface SolveSettings extends Settings {
  grid: (typeof GRIDS)[number];
  retries: number;
  rules: boolean;
}

/** A checked solve (POST /api/sudoku/solve, and the Sudoku stream's `done` event). */
export interface SolveAnswer extends SolveSettings {
  puzzle: string; // 81 digits, 0 for a blank
  board: string; // 81 digits
  solved: boolean;
  problems: string[]; // the rules the board breaks (none when solved)
  reason: string | null; // why it is not solved, in one line (null when solved)
  broken: { rows: number[]; columns: number[]; boxes: number[] }; // 0-based units repeating a digit
  nfe_used: number; // over all attempts
  attempts: number; // the first, and the retries on symmetric copies of the puzzle
}

/** A sample's settings: the sampling ones and the number of samples. */
export interface SampleSettings extends Settings {
  n: number;
}

/** Text samples (POST /api/text/sample, and the text stream's `done` event). */
export interface TextSampleAnswer extends SampleSettings {
  texts: string[];
  /** the template fields that were normalised as the corpus is, as they were used */
  normalised?: { prompt?: string; suffix?: string; infill?: string };
  nfe_used: number;
}

/** An image's size and token levels (tasks/image's ImageGeometry). */
export interface Geometry {
  height: number;
  width: number;
  channels: number;
  levels: number;
}

/** Image samples (POST /api/image/sample, and the image stream's `done` event). */
export interface ImageSampleAnswer extends SampleSettings {
  geometry: Geometry;
  images: number[][]; // [n][C * H * W] grey levels
  nfe_used: number;
}

/** A generated puzzle (GET /api/sudoku/generate). */
export interface GenerateAnswer {
  puzzle: string;
  difficulty: string; // its difficulty class
  givens: number;
  seed: number;
}

/** A task whose model is served: what its page offers. */
export interface ServedTask {
  available: true;
  source: string; // the weights file, relative to the models folder
  process: string; // the process's name (config.json's process.name)
  precision: 'float32' | 'bfloat16'; // the network's compute precision as served
  samplers: string[];
  defaults: Defaults;
  length: number; // sites a sample
  geometry?: Geometry; // images
  alphabet?: string; // text: the character of each token
  pieces?: string[]; // text: the text of each token (a character, or a BPE token's piece)
  retries?: number; // Sudoku: a solve's default retries
}

/** A task without a model, and why. */
export interface UnavailableTask {
  available: false;
  reason: string;
}

export type TaskInfo = ServedTask | UnavailableTask;

/**
 * GET /api/models: each task's model (the shipped tasks the page shows, and any other the
 * server's registry holds), the request limits, the generated puzzles' classes.
 */
export interface ModelsInfo {
  tasks: Record<TaskName, TaskInfo> & { [task: string]: TaskInfo };
  limits: typeof LIMITS;
  difficulties: readonly string[];
}

/**
 * The shared batches of POST /api/sudoku/solve (an adaptive sampler's solves share the network's
 * passes; each batch is one job of the queue): now, and counted since the start.
 */
export interface SharedBatchStats {
  batches: number; // running or waiting for a job slot
  solves: number; // riding them, not yet answered
  answered: number; // solves a shared batch answered with a board
  left: number; // solves that left before their answer: their client went away, or their time cap
  passes: number; // network passes of the shared batches
  rows: number; // the boards those passes took, summed (rows / passes: a pass's mean batch)
}

/** GET /health: the queue's state, the open streams, memory and the event loop's delay. */
export interface HealthAnswer {
  status: 'ok';
  uptime_s: number;
  rss_mb: number;
  loop_delay_ms: { p99: number; max: number };
  queue: QueueStats; // a shared batch counts as one job
  sudoku_batch: SharedBatchStats;
  streams: number; // open event streams
}
