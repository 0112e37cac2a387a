// The task shapes by name (a registry, docs/design.md §6): what rebuilding a saved model needs of
// its task, looked up from the `task` field of the model's config.
import type { TaskShape, TrainConfig } from '../train/index.js';
import { savedImageShape } from './image/load.js';
import { solvingTask } from './sudoku/load.js';
import { textShape } from './text/task.js';

const SHAPES: Record<string, (config: TrainConfig) => TaskShape> = {
  sudoku: () => solvingTask(),
  text: (config) => textShape(config),
  image: (config) => savedImageShape(config),
};

export function taskShape(config: TrainConfig): TaskShape {
  const make = SHAPES[config.task];
  if (!make)
    throw new Error(
      `unknown task '${config.task}' in the model's config (known: ${Object.keys(SHAPES).join(', ')})`,
    );
  return make(config);
}
