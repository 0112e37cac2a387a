// The SJD process engine (docs/design.md §1-§2): forward law, DHM plug-in, classifier-induced score.
export * from './blend.js';
export * from './choice.js';
export { type Corrupted, corrupt } from './corrupt.js';
export { logTarget, logTargetClosedForm, logTargetQuadrature } from './dhm.js';
export { type ElboInput, type ElboTerms, elboTerms } from './elbo.js';
export * from './hazard.js';
export {
  frequencyHazardWeights,
  gammaForSpread,
  type HazardWeightsSpec,
  hazardWeightsOf,
  learnedHazardOf,
  parseHazardWeights,
  withHazardWeights,
} from './hazard-weights.js';
export { type PlugIn, plugIn, plugInAllocation, plugInRate } from './plugin.js';
export { makeProcess, type PresetOptions, presets } from './presets.js';
export { type ProcessConfig, SJDProcess, VARIANCE_FLOOR } from './process.js';
export {
  type MixtureTerms,
  mixtureTerms,
  type QuadratureRule,
  quadratureNodes,
} from './quadrature.js';
export {
  achievedRank,
  RANK_TEXT8,
  type RankDegradation,
  type RankVPConfig,
  rankDegradation,
} from './rank-schedule.js';
export { blendedPosteriorMean, classifierScore } from './score.js';
export { sampleTimes, T_CLIP, type TimeSampling } from './time.js';
export {
  interpolatedEmbedding,
  valueAnchors,
  valueEmbedding,
  valuePeriod,
} from './value-embedding.js';
export { type LinearVPConfig, VP_DEFAULT, type VPConfig, VPSchedule } from './vp.js';
