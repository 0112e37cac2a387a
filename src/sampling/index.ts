// Samplers: pure step functions in a registry, one driver (docs/design.md §2).
export { adaptiveStep, checkCommitRule, DEFAULT_COMMIT, substepTimes } from './adaptive-step.js';
export {
  ancestralStep,
  checkAncestral,
  commitProbabilities,
  posteriorMove,
  reweigh,
} from './ancestral-step.js';
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
export { boardTime, boardTimes } from './board-time.js';
export { candiStep } from './candi-step.js';
export { drawCategorical } from './categorical.js';
export { confidenceStep } from './confidence-step.js';
export {
  driverSteps,
  type SampleOptions,
  type SampleResult,
  sample,
  sampleSteps,
  stepGenerator,
  type TrajectoryStep,
} from './driver.js';
export { classify, type Exclusion } from './exclusion.js';
export { type GridKind, timeGrid } from './grid.js';
export { mdlmStep } from './mdlm-step.js';
export { modelClassifier } from './model-classifier.js';
export {
  defaultSampler,
  getSampler,
  registerSampler,
  type Sampler,
  samplerNames,
  samplers,
  samplersFor,
} from './registry.js';
export { DEFAULT_UNDOS, remaskStep } from './remask-step.js';
export { eulerChain, reverseSdeMove, reverseSdeMoveAlong, temperedProbs } from './reverse-sde.js';
export { drain, shown } from './run.js';
export { sjdStep, sjdStepWith } from './sjd-step.js';
export type {
  AdaptiveStepFn,
  Classifier,
  CommitRule,
  SamplerState,
  StepContext,
  StepFn,
  Time,
} from './types.js';
