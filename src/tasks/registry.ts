// The tasks by name (docs/design.md §6): the TaskSpec of each task (common/task-spec.ts, each
// written in its task's folder), so that the commands and `sjd serve` loop over the tasks instead
// of branching on their names. A task is its folder, its spec.ts and one line of TASK_SPECS;
// registerTask adds one at run time (a library user's task, the registry test's toy task).
import { SAMPLING_DEFAULTS } from '../sampling/defaults.js';
import type { TaskShape, TrainConfig } from '../train/index.js';
import type { TaskSpec as Spec, TrainEntry } from './common/task-spec.js';
import { imageSpec } from './image/spec.js';
import { sequenceSpec } from './sequences/spec.js';
import type { TaskModel } from './serving.js';
import { sudokuSpec } from './sudoku/spec.js';
import { textSpec } from './text/spec.js';

export type {
  CompareEntry,
  CompareOptions,
  PreparedRun,
  SamplingDefaults,
  TaskFlag,
  TaskServing,
  TrainEntry,
  TrainOptions,
  UnconditionalSettings,
} from './common/task-spec.js';
export type { TaskModel } from './serving.js';

/** A task as the registry holds it: its model one of those TaskModel describes. */
export type TaskSpec = Spec<TaskModel>;

/** The tasks sjd ships, in the order the commands list them. */
export const TASK_SPECS: Record<string, TaskSpec> = {
  sudoku: sudokuSpec,
  text: textSpec,
  image: imageSpec,
};

/** Tasks sjd has beyond those: the commands and the API serve them; the page has no tab for them. */
const MORE_TASKS: Record<string, TaskSpec> = { sequences: sequenceSpec };

const registered = new Map<string, TaskSpec>(Object.entries({ ...TASK_SPECS, ...MORE_TASKS }));

/** A spec's sampling defaults, every one present (a module without types may leave one out). */
function checkSamplingDefaults(spec: TaskSpec): void {
  const d: Record<string, unknown> = { ...spec.sampling };
  const missing = Object.keys(SAMPLING_DEFAULTS).filter(
    (k) => typeof d[k] !== typeof SAMPLING_DEFAULTS[k as keyof typeof SAMPLING_DEFAULTS],
  );
  if (missing.length > 0)
    throw new Error(
      `task '${spec.name}': sampling lacks ${missing.join(', ')} (spread sampling.SAMPLING_DEFAULTS and override what differs)`,
    );
}

/**
 * A spec's required members, checked where a task of the user's joins (a module in JavaScript is
 * not type-checked): every command builds on them, so one missing failed them all with a stack
 * trace.
 */
function checkRequired(spec: TaskSpec): void {
  const train: Partial<TrainEntry> = spec.train ?? {};
  const missing = [
    typeof spec.load !== 'function' && 'load',
    typeof spec.shape !== 'function' && 'shape',
    !spec.sampling && 'sampling',
    ...(spec.train
      ? [
          !train.description && 'train.description',
          !train.sizes && 'train.sizes',
          !train.defaults && 'train.defaults',
          typeof train.prepare !== 'function' && 'train.prepare',
        ]
      : ['train']),
  ].filter((m): m is string => typeof m === 'string');
  if (missing.length > 0)
    throw new Error(
      `task '${spec.name}': its spec lacks ${missing.join(', ')} (docs/library.md, "A task of your own")`,
    );
}

/** Adds a task to every command and to `sjd serve`; a name already taken is refused. */
export function registerTask(spec: TaskSpec): void {
  if (!/^[a-z][a-z0-9-]*$/.test(spec.name))
    throw new Error(`task name '${spec.name}': lower-case letters, digits and '-' only`);
  if (registered.has(spec.name)) throw new Error(`task '${spec.name}' is already registered`);
  checkRequired(spec);
  checkSamplingDefaults(spec);
  registered.set(spec.name, spec);
}

/** Every task, shipped and registered, in registration order. */
export const taskSpecs = (): TaskSpec[] => [...registered.values()];

/** A task by name; one line naming the known ones for another (`context` says where it was read). */
export function taskSpec(name: string, context = ''): TaskSpec {
  const spec = registered.get(name);
  if (!spec)
    throw new Error(
      `unknown task '${name}'${context} (known: ${[...registered.keys()].join(', ')})`,
    );
  return spec;
}

/** What rebuilding a saved model needs of its task, from the `task` field of its config. */
export function taskShape(config: TrainConfig): TaskShape {
  return taskSpec(config.task, " in the model's config").shape(config);
}
