// The page's tasks as they are served (common/task-spec.ts TaskServing): by `sjd serve` from the
// registry's specs, which spread these, and in a browser by the static site of `sjd export-web`
// (src/web/site-worker.ts), which holds these alone: nothing here reads a file, trains or
// compares, so a browser bundle carries no more of sjd than sampling needs.
import type { TaskName } from '../serve/api-types.js';
import type { LoadedModel } from '../train/model-io.js';
import type { TaskServing } from './common/task-spec.js';
import { imageServing } from './image/serving.js';
import type { ImageGeometry } from './image/tokens.js';
import { sudokuServing } from './sudoku/serving.js';
import { textServing } from './text/serving.js';

/** A loaded model with what its task adds: an image's geometry, the text's alphabet. */
export interface TaskModel extends LoadedModel {
  geometry?: ImageGeometry;
  alphabet?: string; // the character of each token
  pieces?: string[]; // the text of each token (a character, or a BPE token's piece)
}

/** Each of the page's tasks as it is served, by name (the page's tabs, api-constants.ts TASKS). */
export const TASK_SERVINGS: Record<TaskName, TaskServing<TaskModel>> = {
  sudoku: sudokuServing,
  text: textServing,
  image: imageServing,
};
