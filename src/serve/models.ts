// The models `sjd serve` serves, found in one folder (default: the package's models/): each task
// of the registry in its own subfolder, `sudoku/`, `text/`, `image/` (a run folder or an exported
// model each), loaded as the task's commands load it. A task whose folder holds no model is
// unavailable, with the reason, and so is one whose model does not load: the page and
// /api/models say so; neither stops the server. A models folder that is missing or is a file
// stops it at start, in one line. What the API shows names no absolute path: the
// weights file and the reasons give paths relative to the models folder (or a file's name).
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import type { PrecisionSetting } from '../model/auto-precision.js';
import { taskSpecs } from '../tasks/registry.js';
import { MODEL_FILES } from '../train/index.js';
import { type Served, servedModelOf } from './served.js';

export type { Served, ServedModel } from './served.js';

/** The package's models/ folder. */
export const SHIPPED_MODELS = new URL('../../../models', import.meta.url).pathname;

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

/**
 * Each task's model from `<dir>/<task>` at `precision` (model/auto-precision.ts: auto resolved
 * for each task), or why it is unavailable.
 */
export function loadServedModels(dir: string, precision?: PrecisionSetting): Served {
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
      const m = spec.load(path, precision);
      out[task] = servedModelOf(spec, m, shownPath(dir, m.source));
    } catch (e) {
      out[task] = { unavailable: `${task}/: ${redacted(dir, (e as Error).message)}` };
    }
  }
  return out;
}
