// The settings of the hazard tables (app:e2e-hazard; hazards.ts), which their report
// (hazard-report.ts) reads too: the runs, their arms and seeds, and the frontiers' sampler and budgets.
import type { SamplerName } from '../../sampling/index.js';
import type { ComparisonRuns } from '../../tasks/common/task-spec.js';

export interface HazardCompareOptions extends ComparisonRuns {
  seeds: number[]; // of the frozen table's arms
  learnedSeeds: number[]; // of the learned table's arms (the paper: one seed)
  arms: string[];
  sampler: SamplerName; // the frontiers' sampler (one that honours per-anchor hazards)
  n: number;
  nfes: number[]; // the frontiers' NFE budgets, the sweep the best point is taken over
}
