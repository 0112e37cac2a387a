// The tasks by name (issue #28; docs/design.md §6): one TaskSpec per task holding what the
// commands and `sjd serve` need of it without branching on its name: the shape its saved models
// are built for (from their config), how a model folder loads, and the sampling settings its
// commands and the page start from. A task is its folder and one line of TASK_SPECS.
import type { SJDProcess } from '../process/index.js';
import { defaultSampler } from '../sampling/index.js';
import type { TaskShape, TrainConfig } from '../train/index.js';
import type { LoadedModel } from '../train/model-io.js';
import { type ImageGeometry, loadImageModel, savedImageShape } from './image/index.js';
import {
  DEFAULT_SUDOKU_SAMPLER,
  defaultSudokuNfe,
  loadSudokuModel,
  sudokuShape,
} from './sudoku/index.js';
import { ALPHABET, loadTextModel, textShape } from './text/index.js';

/** Where sampling starts unless told otherwise (`sjd solve`, `sjd sample`, the page). */
export interface SamplingDefaults {
  sampler(proc: SJDProcess): string; // text, images: defaultSampler (MDLM's step or Alg. 2)
  nfe(sampler?: string): number; // the NFE budget (per board for Sudoku)
  temperature: number;
}

/** A loaded model with what its task adds: an image's geometry, the text's alphabet. */
export interface TaskModel extends LoadedModel {
  geometry?: ImageGeometry;
  alphabet?: string; // the character of each token
}

export interface TaskSpec {
  name: string;
  /** The positions, classes and structure a saved model of this task is built for. */
  shape(config: TrainConfig): TaskShape;
  /** A run folder or exported model (the shipped one when `dir` is absent). */
  load(dir?: string): TaskModel;
  sampling: SamplingDefaults;
}

export const TASK_SPECS = {
  sudoku: {
    name: 'sudoku',
    shape: () => sudokuShape,
    load: loadSudokuModel,
    sampling: {
      sampler: () => DEFAULT_SUDOKU_SAMPLER,
      nfe: (sampler = DEFAULT_SUDOKU_SAMPLER) => defaultSudokuNfe(sampler),
      temperature: 1,
    },
  },
  text: {
    name: 'text',
    shape: textShape,
    load: (dir) => ({ ...loadTextModel(dir), alphabet: ALPHABET }),
    sampling: { sampler: defaultSampler, nfe: () => 64, temperature: 0.7 },
  },
  image: {
    name: 'image',
    shape: (config) => savedImageShape(config),
    load: loadImageModel,
    sampling: { sampler: defaultSampler, nfe: () => 64, temperature: 1 },
  },
} satisfies Record<string, TaskSpec>;

/** A task by name; one line naming the known ones for another (`context` says where it was read). */
export function taskSpec(name: string, context = ''): TaskSpec {
  const spec = (TASK_SPECS as Record<string, TaskSpec>)[name];
  if (!spec)
    throw new Error(
      `unknown task '${name}'${context} (known: ${Object.keys(TASK_SPECS).join(', ')})`,
    );
  return spec;
}

/** What rebuilding a saved model needs of its task, from the `task` field of its config. */
export function taskShape(config: TrainConfig): TaskShape {
  return taskSpec(config.task, " in the model's config").shape(config);
}
