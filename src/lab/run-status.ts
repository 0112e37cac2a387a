// Where the run folders of a comparison stand (`sjd runs DIR`; docs/design.md §4): for each run
// folder under DIR (one holding a config.json), its checkpoint's step against the config's, the
// live process that holds it (run-claim.ts), the results cached beside it (a frontier, a score
// or an infilling cache, learned hazard weights) and the traces stopped part-way with their
// points; a feature network's folder (`sjd train features`), with its steps and test accuracy; a
// run that cannot be read, with the reason. Read from the files alone: no weights are loaded,
// nothing is written.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_FOLDER } from '../tasks/image/feature-train.js';
import { readConfig } from '../train/config.js';
import { claimHolder } from '../train/run-claim.js';
import { checkpointDir, isKeptResult, RUN_FILES, runState } from '../train/run-folder.js';

export interface RunStatus {
  name: string; // the folder's name under DIR
  step: number | null; // the checkpoint's step (null: no checkpoint, e.g. a run kept as results)
  steps: number; // the config's
  heldBy: number | null; // the pid of a live process that holds the run, if any
  results: string[]; // cached results, by file name
  partial: { file: string; points: number }[]; // traces stopped part-way
  /** why the run cannot be read (a broken config.json, checkpoint, ...); listed, not fatal */
  broken?: string;
  /** a feature network (`sjd train features`), not a run: its test accuracy */
  features?: { testAccuracy: number };
}

/** A feature network's folder as a finished run: its steps, its test accuracy. */
function featureStatus(run: string): Pick<RunStatus, 'step' | 'steps' | 'features'> {
  const c = JSON.parse(readFileSync(join(run, RUN_FILES.config), 'utf8'));
  if (!(Number.isInteger(c.steps) && typeof c.testAccuracy === 'number'))
    throw new Error(`${join(run, RUN_FILES.config)}: not a feature network's config`);
  return { step: c.steps, steps: c.steps, features: { testAccuracy: c.testAccuracy } };
}

function pointsIn(file: string): number {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(saved.points) ? saved.points.length : 0;
  } catch {
    return 0; // unreadable: no point of it is used
  }
}

/** The status of every run folder directly under `dir`, by name. */
export function runsUnder(dir: string): RunStatus[] {
  if (!existsSync(dir)) throw new Error(`${dir}: no such folder`);
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is a file, not a folder of runs`);
  const runs: RunStatus[] = [];
  for (const name of readdirSync(dir).sort()) {
    const run = join(dir, name);
    if (name.startsWith('.') || !existsSync(join(run, RUN_FILES.config))) continue;
    const files = readdirSync(run).sort();
    const partial = files
      .filter((f) => f.endsWith('.partial.json'))
      .map((file) => ({ file, points: pointsIn(join(run, file)) }));
    const held = {
      heldBy: claimHolder(run)?.pid ?? null,
      results: files.filter(isKeptResult),
      partial,
    };
    try {
      if (FEATURE_FOLDER.isOurs(run)) {
        runs.push({ name, ...featureStatus(run), ...held });
        continue;
      }
      const steps = readConfig(join(run, RUN_FILES.config)).steps;
      runs.push({
        name,
        step: checkpointDir(run) === null ? null : runState(run).step,
        steps,
        ...held,
      });
    } catch (e) {
      // one broken run does not hide the others: listed with its reason
      runs.push({ name, step: null, steps: 0, ...held, broken: (e as Error).message });
    }
  }
  return runs;
}
