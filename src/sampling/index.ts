// Samplers: pure step functions in a registry, one driver (docs/design.md §2).
export { adaptiveStep, DEFAULT_COMMIT, substepTimes } from './adaptive-step.js';
export { ancestralStep } from './ancestral-step.js';
export {
  type BatchedSampleOptions,
  type BatchedSampleResult,
  batchedSteps,
  checkBatchSize,
  sampleBatchSteps,
  sampleInBatches,
  type UnconditionalOptions,
  unconditionalSampling,
  type Watch,
} from './batched.js';
export { boardTime } from './board-time.js';
export { candiStep } from './candi-step.js';
export { confidenceStep } from './confidence-step.js';
export {
  DEFAULT_BATCH,
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
  type SamplingSettings,
  withSamplingDefaults,
} from './defaults.js';
export {
  type SampleResult,
  sample,
  sampleSteps,
  type TrajectoryStep,
} from './driver.js';
export type { SampleOptions } from './driver-options.js';
export { classify, type Exclusion } from './exclusion.js';
export { GRID_KINDS, type GridKind, timeGrid } from './grid.js';
export { refillSteps, rowSteps, samplingSteps } from './loop.js';
export { modelClassifier } from './model-classifier.js';
export {
  defaultSampler,
  getSampler,
  registerSampler,
  type Sampler,
  samplerName,
  samplerNames,
  samplers,
  samplersFor,
} from './registry.js';
export { DEFAULT_UNDOS } from './remask-step.js';
export { eulerChain, reverseSdeMove, reverseSdeMoveAlong } from './reverse-sde.js';
export type {
  RefillOptions,
  RefillResult,
  RefillStep,
  RefillWatch,
  RowAnswer,
  RowJob,
  RowSource,
} from './rows.js';
export { drain, shown } from './run.js';
export type { SamplerName, SamplerNames } from './sampler-names.js';
export { sjdStep } from './sjd-step.js';
export { RowKeyedRandom, rowKey, type StepRandom, stepGenerator } from './step-random.js';
export type {
  Classifier,
  CommitRule,
  SamplerState,
  StepContext,
  StepFn,
  Time,
} from './types.js';
