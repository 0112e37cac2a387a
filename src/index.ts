// sjd's public entry point (`import 'sjd'`): the tensor layer, the process engine, the pixel-space
// baselines (DDPM, Bit Diffusion), samplers, denoisers, training, the tasks, the paper's figures,
// and utilities. Two entries stand beside it: the HTTP server (`sjd/serve`, src/serve/index.ts),
// so that importing the library loads no server, and the lab (`sjd/lab`, src/lab/index.ts), the
// comparisons and their reports, run queues and solve pools. docs/design.md §2.

export * as figures from './figures/index.js';
export {
  defaultPrecisionSetting,
  PRECISION_SETTINGS,
  type PrecisionSetting,
  type ResolvedPrecision,
  resolvePrecision,
} from './model/auto-precision.js';
export { Backbone, type BackboneConfig } from './model/backbone.js';
export { Denoiser, type DenoiserConfig } from './model/denoiser.js';
export type { Network } from './model/network.js';
export { atPrecision, PRECISIONS, type Precision, precisionOf } from './model/precision.js';
export { TokenClassifier } from './model/token-classifier.js';
export * as pixel from './pixel/index.js';
export * as process from './process/index.js';
export * as sampling from './sampling/index.js';
export * as image from './tasks/image/index.js';
export {
  type CompareEntry,
  type PreparedRun,
  registerTask,
  TASK_SPECS,
  type TaskFlag,
  type TaskSpec,
  type TrainOptions,
  taskShape,
  taskSpec,
  taskSpecs,
} from './tasks/registry.js';
export { runReverseDemo } from './tasks/reverse/demo.js';
export * as sequences from './tasks/sequences/index.js';
export * as sudoku from './tasks/sudoku/index.js';
export * as text from './tasks/text/index.js';
export * as torch from './torch/index.js';
export * as train from './train/index.js';
export * as util from './util/index.js';
