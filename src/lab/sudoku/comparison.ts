// The paper's Sudoku comparison at this machine's scale (sec:exp-sudoku,
// tab:sudoku_schedule_ablations): hybrid (CADD, W = I) against sjd (constraint graph, sigma_W =
// 1.5), and beside them masked (MDM) and the autoregressive baselines (ar-ltr, ar-solver:
// autoregressive-run.ts, greedy decoding in their order), same size, budget and seeds. Each run
// is a resumable run folder; finished runs are skipped and their final scores cached beside them,
// so the comparison can be continued across sessions. The report is report.ts's.
import { join } from 'node:path';
import { parseProcessName } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { matchedMlpHidden } from '../../tasks/sudoku/autoregressive/train.js';
import { scoreBoards } from '../../tasks/sudoku/metrics.js';
import { sudokuConfig } from '../../tasks/sudoku/presets.js';
import { solveSudoku } from '../../tasks/sudoku/solve.js';
import { hashPairs, type SudokuTask } from '../../tasks/sudoku/task.js';
import { loadTransformer, runState, type TrainHooks } from '../../train/index.js';
import { cached } from '../../util/cache.js';
import { mean } from '../../util/stats.js';
import { throttle } from '../../util/throttle.js';
import { keptResult } from '../kept-run.js';
import { modelSeedRuns, workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';
import { autoregressiveRun, isAutoregressive } from './autoregressive-run.js';
import { FINAL_EVAL } from './final-eval.js';
import {
  COLLAPSE_BELOW,
  diffusionParameters,
  label,
  networkOf,
  type RunSummary,
  type SudokuCompareOptions,
} from './options.js';
import { writeReport } from './report.js';
import { boardCurve, riseStep } from './rise.js';

type FinalEvaluation = Pick<
  RunSummary,
  'solveRate' | 'cellAccuracy' | 'nfeMean' | 'confidenceRate'
>;

/** The final scores' cache key: the test set, the NFE and the step of the weights scored. */
const finalKey = (o: SudokuCompareOptions, step: number) => ({
  puzzles: hashPairs(o.test),
  adaptiveNfe: o.adaptiveNfe,
  nfe: o.nfe,
  step,
});

/**
 * A finished run's held-out scores under both samplers, cached beside it (FINAL_EVAL) for
 * this test set, these NFE and this step: a resumed comparison does not evaluate it again.
 */
function finalEvaluation(
  dir: string,
  task: SudokuTask,
  o: SudokuCompareOptions,
  step: number,
  log?: (line: string) => void,
): FinalEvaluation {
  return cached(join(dir, FINAL_EVAL), finalKey(o, step), () => {
    const { model, process: proc } = loadTransformer(dir, task);
    const solve = (sampler: SamplerName, nfe: number) => {
      log?.(`${dir}: solving ${o.test.puzzles.length} held-out puzzles by the ${sampler} sampler`);
      const said = throttle((k: number) => log?.(`${dir}: ${sampler}, ${k} batch passes`));
      // the networks alone
      return solveSudoku(model, proc, o.test.puzzles, {
        sampler,
        nfe,
        seed: 0,
        retries: 0,
        onStep: said,
      });
    };
    const adaptive = solve('adaptive', o.adaptiveNfe);
    const s = scoreBoards(o.test.puzzles, o.test.solutions, adaptive.boards);
    const c = scoreBoards(o.test.puzzles, o.test.solutions, solve('confidence', o.nfe).boards);
    return {
      solveRate: s.solve_rate,
      cellAccuracy: s.cell_accuracy,
      nfeMean: mean(adaptive.nfe),
      confidenceRate: c.solve_rate,
    };
  });
}

export async function runComparison(
  task: SudokuTask,
  o: SudokuCompareOptions,
  hooks: TrainHooks = {},
): Promise<RunSummary[] | null> {
  const queue = modelSeedRuns(o, (model, seed, dir) => {
    const work = async (): Promise<RunSummary | null> => {
      hooks.log?.(`${label(model)}, seed ${seed}`);
      if (isAutoregressive(model)) return baseline(task, o, model, seed, dir, hooks);
      const config = sudokuConfig({
        size: o.size,
        ...parseProcessName(model),
        seed,
        steps: o.steps,
        precision: o.precision,
        evalEvery: o.evalEvery,
        ...networkOf(o),
      });
      // a run kept without its weights is read from its cached scores
      const kept = keptResult<FinalEvaluation>(
        dir,
        FINAL_EVAL,
        finalKey(o, o.steps),
        task.takeoffMetric,
      );
      if (!(await trainUnlessScored(dir, config, task, kept !== undefined, hooks))) return null;
      const state = kept ? { step: o.steps, takeoff: kept.takeoff } : runState(dir);
      const f = kept?.value ?? finalEvaluation(dir, task, o, state.step, hooks.log);
      hooks.log?.(
        `${dir}: solve rate ${(100 * f.solveRate).toFixed(2)}% adaptive, ${(100 * f.confidenceRate!).toFixed(2)}% confidence; takeoff ${state.takeoff ?? 'none'}`,
      );
      return {
        model,
        seed,
        dir,
        ...f,
        takeoff: state.takeoff ?? null,
        rise: riseStep(boardCurve(dir)),
        collapsed: f.solveRate < COLLAPSE_BELOW,
      };
    };
    return { dir, work };
  });
  const summaries = await workThrough(queue, { log: hooks.log, wait: o.wait });
  if (summaries) await writeReport(o, summaries);
  return summaries;
}

/** A seed of an autoregressive baseline, at the comparison's size, budget and augmentation. */
function baseline(
  task: SudokuTask,
  o: SudokuCompareOptions,
  model: string,
  seed: number,
  dir: string,
  hooks: TrainHooks,
): RunSummary | null {
  const augment = sudokuConfig({ size: o.size, augment: o.augment }).augment ?? 'digits';
  const r = autoregressiveRun(
    model,
    dir,
    {
      size: o.size,
      mlpHidden: matchedMlpHidden(o.size, diffusionParameters(o)),
      precision: o.precision,
      seed,
      steps: o.steps,
      evalEvery: o.evalEvery,
      augment,
      train: task.train,
      test: o.test,
      takeoffMetric: task.takeoffMetric,
    },
    hooks,
  );
  if (!r) return null;
  const f = r.scores;
  hooks.log?.(
    `${dir}: solve rate ${(100 * f.solveRate).toFixed(2)}% greedy (${f.brokenRules} answers break a rule); takeoff ${r.takeoff ?? 'none'}`,
  );
  return {
    model,
    seed,
    dir,
    solveRate: f.solveRate,
    cellAccuracy: f.cellAccuracy,
    nfeMean: f.passesPerBoard,
    confidenceRate: null,
    takeoff: r.takeoff,
    rise: riseStep(boardCurve(dir)),
    collapsed: f.solveRate < COLLAPSE_BELOW,
  };
}
