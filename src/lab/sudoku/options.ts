// The settings and results of the Sudoku comparison (comparison.ts), which its report
// (report.ts) reads too: the comparison's options, a run's summary, when a seed has collapsed, a
// model's label, and the diffusion network the autoregressive baselines match in size.
import type { AttentionKind } from '../../model/attention-pattern.js';
import { describeProcess, parseProcessName } from '../../process/index.js';
import type { ComparisonRuns } from '../../tasks/common/task-spec.js';
import { type SudokuOptions, sudokuConfig } from '../../tasks/sudoku/presets.js';
import type { Augment } from '../../tasks/sudoku/symmetry.js';
import { type SudokuPairs, sudokuShape } from '../../tasks/sudoku/task.js';
import { TorchGenerator, tidy } from '../../torch/index.js';
import { buildModel } from '../../train/build.js';
import { AR_MODELS, isAutoregressive } from './autoregressive-run.js';

/** A seed has collapsed when its final adaptive solve rate is below this (near chance). */
export const COLLAPSE_BELOW = 0.01;

export interface SudokuCompareOptions extends ComparisonRuns {
  evalEvery?: number; // held-out evaluation period (default: the preset's)
  models: string[]; // process/choice.ts's names: 'hybrid' (CADD), 'sjd' (the constraint-graph W), 'sjd-<sigma_W>', 'masked'; or 'ar-ltr', 'ar-solver'
  network?: string; // a network setting (presets.ts SUDOKU_NETWORKS; default: the size's)
  attention?: AttentionKind; // the network (default: the setting's, else the size's)
  augment?: Augment; // training boards' symmetries (default: the size's)
  loops?: number; // weight-tied passes through the blocks (default: the setting's, else the size's)
  deepSupervision?: boolean; // the cross-entropy at every loop, averaged
  test: SudokuPairs; // final evaluation set
  nfe: number; // the confidence policy's NFE
  adaptiveNfe: number; // the adaptive sampler's cap
  doc: string; // Markdown path; the plot goes beside it (.svg)
}

export interface RunSummary {
  model: string;
  seed: number;
  dir: string;
  solveRate: number; // adaptive sampler (the autoregressive baselines: greedy decoding)
  cellAccuracy: number; // adaptive sampler (greedy decoding)
  nfeMean: number; // adaptive sampler, per board (greedy decoding: network passes a board)
  confidenceRate: number | null; // the confidence policy at `nfe` (null: no such sampler)
  takeoff: number | null; // the first evaluation that solves a board (null: none did)
  rise: number | null; // rise.ts: the first evaluation at half the run's best (null: none solved)
  collapsed: boolean;
}

/** The network options every diffusion run of the comparison shares. */
export const networkOf = (o: SudokuCompareOptions): SudokuOptions => ({
  network: o.network,
  attention: o.attention,
  augment: o.augment,
  loops: o.loops,
  deepSupervision: o.deepSupervision,
});

/** A model's name in the report: a process's description, or the baseline's label. */
export const label = (model: string) =>
  isAutoregressive(model)
    ? AR_MODELS[model]!.label
    : describeProcess(sudokuConfig({ ...parseProcessName(model) }).process);

/**
 * The parameter count of the comparison's diffusion network (the same for every process: the
 * processes differ in W and the hazards, not in the network), which the baselines match.
 */
export function diffusionParameters(o: SudokuCompareOptions): number {
  const c = sudokuConfig({ size: o.size, ...networkOf(o) });
  return tidy(() =>
    buildModel(sudokuShape, c.model, new TorchGenerator(0), c.process).numParameters(),
  );
}
