// What a task is to the commands and `sjd serve` (docs/design.md §6): one TaskSpec per task,
// written in the task's folder (spec.ts) and listed in tasks/registry.ts, so that `sjd train`,
// `sjd compare`, `sjd serve` and the demo loop over the tasks instead of branching on their
// names. A new task is its folder, its spec and one line of the registry. This folder sits below
// every task's (it imports none), so the tasks and the registry above them form no circle; a spec
// names the model its task loads (M: an image's geometry, the text's alphabet). A task's own flags
// of `sjd train TASK` and `sjd compare TASK` are data it declares (TaskFlag), which the command
// line adds as it finds them, a task registered at run time's as the shipped ones'.

import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { Precision } from '../../model/precision.js';
import type { SamplingDefaults, SamplingSettings, TrajectoryStep } from '../../sampling/index.js';
import type {
  ConfigOptions,
  ProcessDefaults,
  Size,
  TaskShape,
  TrainConfig,
  TrainHooks,
  TrainTask,
} from '../../train/index.js';
import type { LoadedModel } from '../../train/model-io.js';

/** Where sampling starts unless told otherwise (sampling/defaults.ts). */
export type { SamplingDefaults };

/** The settings of one unconditional sampling run (a request of the API, a command's flags). */
export interface UnconditionalSettings extends SamplingSettings {
  n: number; // samples (one batch)
  seed: number;
}

/**
 * A flag of the task's own, as `sjd train TASK` or `sjd compare TASK` takes it; its value reaches
 * the task under the flag's camelCase name (`--eval-size` as evalSize).
 */
export interface TaskFlag {
  flags: string; // commander's syntax: '--eval-size <n>', '-n, --n <n>', '--infill [shapes]', '--json'
  description: string; // the help line (a default shown by `default` is not repeated here)
  /** The value from its text; throws an Error whose one-line message says what is wrong. */
  parse?: (value: string) => unknown;
  default?: unknown; // the value when the flag is not given (the help shows it)
  hidden?: boolean; // taken, not shown by --help (an earlier name)
  /** Its default is a path of this installation: a reproduce line leaves it out while it holds it. */
  localDefault?: boolean;
}

/**
 * What `sjd train TASK` gives a task: the run and process flags, the task's own flags, and where
 * to say what it is doing while it prepares (generating data, say).
 */
export type TrainOptions = ConfigOptions & {
  out: string;
  log?: (line: string) => void;
} & Record<string, unknown>;

/** A run ready to train: its config (made, or the saved one on resume), its task, a line. */
export interface PreparedRun {
  config: TrainConfig;
  task: TrainTask;
  about: string; // one line on the data and the process, printed before training
}

/** How a task trains: its sizes, the process it trains by default, and a run from the flags. */
export interface TrainEntry {
  description: string; // `sjd train TASK --help`
  sizes: Record<string, Size>;
  defaults: ProcessDefaults;
  flags?: TaskFlag[]; // the task's own flags, after the run and process flags every task takes
  /** The run's config and task: made from `o`, or `saved` (the run's config) on resume. */
  prepare(o: TrainOptions, saved: TrainConfig | undefined): PreparedRun;
  /**
   * A new run's config from `o` alone, for a task whose config needs no data: `--print-config`
   * prints it without reading or generating any (else it prepares the run, data and all).
   */
  config?(o: TrainOptions): TrainConfig;
}

/** The runs of a comparison and its report: the settings every comparison shares. */
export interface ComparisonRuns {
  out: string; // the runs' folder
  size: string;
  steps: number; // training steps per run
  seeds: number[];
  precision?: Precision; // the networks' compute precision (model/precision.ts)
  wait?: boolean; // false (--no-wait): runs other processes hold are left to them (lab/run-queue.ts)
  doc: string; // the Markdown report
  command: string; // the command line that reproduces the comparison
}

/** What `sjd compare TASK` gives a task: the flags every comparison takes, and the task's own. */
export type CompareOptions = ComparisonRuns & {
  models: string[]; // process names (process/choice.ts's parseProcessName)
} & Record<string, unknown>;

/** How a task compares processes at a matched budget (its own metrics and report). */
export interface CompareEntry {
  description: string; // `sjd compare TASK --help`
  /** the names beyond the presets; the default list; the task's own reading of --models */
  models: { help: string; defaults: string[]; parse?: (value: string) => string[] };
  seeds: number[]; // the default seeds
  doc: string; // the default report
  flags?: TaskFlag[]; // the task's own flags, after the flags every comparison takes
  /**
   * Checks across the flags before the comparison starts (one line on what is wrong), given the
   * parsed flags and whether a flag (its camelCase name) was on the command line; returns values
   * to set, if any (an earlier name's value under today's).
   */
  check?(
    flags: Record<string, unknown>,
    given: (name: string) => boolean,
  ): Record<string, unknown> | undefined;
  /** The options (attribute names) that these flags leave unused, left out of the reproduce line. */
  unused?(flags: Record<string, unknown>): string[];
  /**
   * What the comparison writes outside its runs' folder: its report (--doc, or the default of
   * the comparison the flags choose) and the files named after it (plot, data, sample grids),
   * claimed before any training (util/out-path.ts claimOutFiles); absent: --doc alone.
   */
  outputs?(o: CompareOptions): { report: string; beside: string[] };
  /** Trains every model x seed (resumable) and writes the report; false when interrupted. */
  run(o: CompareOptions, hooks: TrainHooks): Promise<boolean>;
}

/**
 * What serving a task's model needs (sampling it, answering the API): nothing that reads files,
 * so that a browser bundle holds it (the static site of `sjd export-web`).
 */
export interface TaskServing<M extends LoadedModel = LoadedModel> {
  name: string;
  /** The positions, classes and structure a saved model of this task is built for. */
  shape(config: TrainConfig): TaskShape;
  sampling: SamplingDefaults;
  /**
   * A model from its folder's two files as bytes (config.json's text, model.safetensors), as
   * `load` gives it from disk; `source` names them in errors. A task without it is not served
   * from bytes (in a browser).
   */
  fromFiles?(configText: string, weights: Uint8Array, source: string): M;
  /**
   * Unconditional sampling, one batch step by step, returning what the API answers besides the
   * settings (text: the strings; images: the geometry and grey levels) and the NFE spent. A task
   * without it is sampled its own way (Sudoku is solved from clues).
   */
  sampleSteps?(
    m: M,
    s: UnconditionalSettings,
    condition?: unknown,
  ): Generator<TrajectoryStep, { answer: Record<string, unknown>; nfe: number }>;
  /**
   * What a sample request may condition on (text: a template): the API's extra
   * fields (strings or whole numbers) and their parse against the model, whose result reaches
   * sampleSteps; it throws a one-line message naming the field as `name` does (default: the
   * field itself, the API's 400; `sjd sample TASK` names its flags).
   */
  conditioning?: {
    fields: Record<string, 'string' | 'int'>;
    parse(m: M, q: Record<string, unknown>, name?: (field: string) => string): unknown;
  };
  /** Fixed facts /api/models adds to the task's entry (Sudoku: the retries a solve makes). */
  apiInfo?: Record<string, unknown>;
}

/** A task to the commands: how it is served, and how its models load, train and compare. */
export interface TaskSpec<M extends LoadedModel = LoadedModel> extends TaskServing<M> {
  /**
   * A run folder or exported model (the shipped one when `dir` is absent), sampling at
   * `precision` (model/auto-precision.ts; default SJD_PRECISION, else auto).
   */
  load(dir?: string, precision?: PrecisionSetting): M;
  train: TrainEntry;
  compare?: CompareEntry;
}
