// The settings of the hazard tables (app:e2e-hazard; hazards.ts), which their report
// (hazard-report.ts) reads too: the runs, their arms and seeds, and the frontiers' sampler and budgets.
import type { Precision } from '../../model/precision.js';
import type { SamplerName } from '../../sampling/index.js';

export interface HazardCompareOptions {
  wait?: boolean; // false (--no-wait): runs other processes hold are left to them (run-queue.ts)
  out: string;
  size: string;
  precision?: Precision; // the networks' compute precision (model/precision.ts)
  steps: number;
  seeds: number[]; // of the frozen table's arms
  learnedSeeds: number[]; // of the learned table's arms (the paper: one seed)
  arms: string[];
  sampler: SamplerName; // the frontiers' sampler (one that honours per-anchor hazards)
  n: number;
  nfes: number[]; // the frontiers' NFE budgets, the sweep the best point is taken over
  doc: string;
  command: string;
}
