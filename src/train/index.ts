// Training: the loop, run and model folders, configs, and what a task gives the trainer.
export {
  buildModel,
  buildPixelDiffusion,
  buildProcess,
  buildRegressor,
  decayGroups,
} from './build.js';
export {
  type ModelChoice,
  parseConfig,
  readConfig,
  type TrainConfig,
  type TransformerChoice,
  type TransformerConfig,
  type UNetChoice,
} from './config.js';
export { type DataParallel, SINGLE, shardsOf } from './data-parallel.js';
export { EMA } from './ema.js';
export { ELBO_DRAWS, elboUnavailable, heldOutElboBits } from './held-out-elbo.js';
export { heldOutLoss, heldOutLossOf, type LossFn } from './held-out-loss.js';
export { launch, rankBound } from './launcher.js';
export { checkRunData, readManifest } from './manifest.js';
export { MetricsLog } from './metrics.js';
export { exportModel } from './model-export.js';
export {
  type LoadedModel,
  type LoadedNetwork,
  type LoadedPixelModel,
  loadModel,
  loadNetwork,
  loadPixelModel,
  loadTransformer,
  type ShapeOf,
} from './model-io.js';
export { type Objective, objectiveOf, type Trainable } from './objective.js';
export {
  type ConfigOptions,
  type ProcessDefaults,
  presetConfig,
  type Size,
  type TransformerSize,
  withSteps,
} from './preset-config.js';
export {
  type Claimer,
  checkUnclaimed,
  claimFile,
  claimHolder,
  claimRun,
  claimRunOrFail,
} from './run-claim.js';
export {
  checkRunFolder,
  finishedStep,
  isModelFolder,
  isRunFolder,
  MODEL_FILES,
  type OpenedRun,
  openRun,
  RUN_FILES,
  type RunState,
  runState,
} from './run-folder.js';
export { type LrSchedule, learningRate } from './schedule.js';
export { sjdLoss } from './sjd-loss.js';
export { crossEntropyStep, optimiseStep, type StepOptions } from './step.js';
export { checkStepMemory, stepBytes } from './step-memory.js';
export type { TaskShape, TrainTask } from './task.js';
export { type TrainHooks, type TrainResult, train } from './trainer.js';
