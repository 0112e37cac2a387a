// The folders training writes, their layout known in this one place (docs/design.md §4):
//   run folder    config.json, manifest.json, checkpoint/ (weights, EMA, optimiser, generator,
//                 state.json), metrics.csv, metrics.svg, frontier.json/.svg (text evaluation);
//                 a comparison caches its results beside them (frontier-*.json, scores*.json,
//                 infill-*.json; learned hazard-weights.json), and a run kept as those results
//                 without its weights and trained again holds kept-metrics.csv (kept-run.ts)
//   model folder  config.json, model.safetensors (EMA weights), manifest.json (what it came from)
// Commands recognise their own folders by these files and refuse any other non-empty folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { asidesOf } from '../util/atomic.js';
import { checkWritable, type FolderKind } from '../util/out-path.js';
import { readConfig, type TrainConfig } from './config.js';

export const RUN_FILES = {
  config: 'config.json',
  manifest: 'manifest.json',
  checkpoint: 'checkpoint',
  metrics: 'metrics.csv',
  plot: 'metrics.svg',
  state: 'state.json', // inside checkpoint/
} as const;

export const MODEL_FILES = {
  config: 'config.json',
  weights: 'model.safetensors',
  manifest: 'manifest.json',
} as const;

/** The kept run's metrics, held while it is trained again (kept-run.ts). */
export const KEPT_METRICS = 'kept-metrics.csv';

/** A result cached beside a run (scripts/keep-results.sh keeps the same files). */
export const isKeptResult = (f: string): boolean =>
  /^(frontier-.*|scores.*|infill-.*|final-eval|hazard-weights)\.json$/.test(f) &&
  !f.endsWith('.partial.json');

/** The checkpoint folder of a run, or the one set aside by a stop during its replacement. */
export function checkpointDir(run: string): string | null {
  const dir = join(run, RUN_FILES.checkpoint);
  if (existsSync(join(dir, RUN_FILES.state))) return dir;
  return asidesOf(dir).find((aside) => existsSync(join(aside, RUN_FILES.state))) ?? null;
}

export const isRunFolder = (dir: string): boolean =>
  existsSync(join(dir, RUN_FILES.config)) && checkpointDir(dir) !== null;

export const isModelFolder = (dir: string): boolean =>
  existsSync(join(dir, MODEL_FILES.config)) && existsSync(join(dir, MODEL_FILES.weights));

export const MODEL_FOLDER: FolderKind = {
  name: 'model folder',
  isOurs: isModelFolder,
  entries: Object.values(MODEL_FILES),
};

/** Where a run's checkpoint stands: its step, takeoff step and last evaluation. */
export interface RunState {
  step: number;
  takeoff: number | null;
  lastEval: Record<string, number> | null;
}

/** The state of a run folder's checkpoint (step 0 when there is none). */
export function runState(dir: string): RunState {
  const ck = checkpointDir(dir);
  if (!ck) return { step: 0, takeoff: null, lastEval: null };
  const path = join(ck, RUN_FILES.state);
  try {
    const s = JSON.parse(readFileSync(path, 'utf8'));
    return { step: s.step, takeoff: s.takeoff ?? null, lastEval: s.lastEval ?? null };
  } catch {
    throw new Error(`${path}: not valid JSON`);
  }
}

/** The step a run folder's checkpoint holds (0 when there is none). */
export const finishedStep = (dir: string): number => runState(dir).step;

/**
 * Checks `dir` for a run: resuming needs a checkpoint there; starting needs a missing or empty
 * folder (never another run's, never a user's files) where files can be written (openRun).
 */
export function checkRunFolder(dir: string, resume: boolean): void {
  const exists = existsSync(dir);
  if (exists && !statSync(dir).isDirectory()) throw new Error(`${dir} is a file, not a run folder`);
  if (resume) {
    if (!exists || checkpointDir(dir) === null)
      throw new Error(`--resume: no checkpoint in ${dir}`);
    return;
  }
  if (exists && isRunFolder(dir))
    throw new Error(
      `${dir} already holds a run; pass --resume to continue it or choose another --out`,
    );
  // A run stopped before its first checkpoint holds only run files: it starts over; so does a
  // run kept as results and trained again (kept-run.ts), its results beside it.
  const runEntries: string[] = [...Object.values(RUN_FILES), 'frontier.json', 'frontier.svg'];
  const retrained = exists && existsSync(join(dir, KEPT_METRICS));
  const allowed = (e: string) =>
    runEntries.includes(e) || (retrained && (e === KEPT_METRICS || isKeptResult(e)));
  if (exists && readdirSync(dir).some((e) => !allowed(e)))
    throw new Error(`${dir} is not empty; choose another --out for the run`);
  checkWritable(dir);
}

/** A run folder checked for training (openRun): resuming, with the config saved there. */
export interface OpenedRun {
  dir: string;
  resume: boolean;
  saved?: TrainConfig; // the run's config.json when resuming
}

/**
 * `dir` checked for a run (checkRunFolder; `check` false: a data-parallel rank other than 0
 * starting a run, which rank 0 checks) and, resuming, its saved config read: what a command
 * reads before it loads data and builds the config, and what train() is given, so that each
 * check is made once.
 */
export function openRun(dir: string, resume: boolean, check = true): OpenedRun {
  if (check) checkRunFolder(dir, resume);
  return { dir, resume, saved: resume ? readConfig(join(dir, RUN_FILES.config)) : undefined };
}
