// The paper's figures (fig:eta-commit, fig:diffusion_comparison) drawn from the process engine
// and the samplers: the data of each panel, the specs, the registry `sjd figure` reads.
export {
  comparisonPaths,
  DIFFUSION_COMPARISON,
  diffusionComparisonFigure,
} from './diffusion-comparison.js';
export { ETA_COMMIT, type EtaCommitPanel, etaCommitFigure, etaCommitPanel } from './eta-commit.js';
export { type HazardSurface, hazardSurface } from './hazard-surface.js';
export { pointMassClassifier } from './point-mass.js';
export { FIGURES, type Figure, type FigureOptions, figure, writeFigure } from './registry.js';
export {
  commitIndex,
  coordinate,
  type ReversePathOptions,
  type ReversePaths,
  reversePaths,
} from './reverse-paths.js';
