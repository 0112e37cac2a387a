// The paper's Sudoku comparison at this machine's scale (sec:exp-sudoku,
// tab:sudoku_schedule_ablations): hybrid (CADD, W = I) against sjd (constraint graph, sigma_W = 1.5),
// and beside them masked (MDM) and the autoregressive baselines (ar-ltr, ar-solver:
// autoregressive-run.ts, greedy decoding in their order), same size, budget and seeds. Each run is a resumable run folder; finished runs are
// skipped and their final scores cached beside them, so the comparison can be continued across
// sessions. Writes a Markdown table (board accuracy mean +- std over seeds under the adaptive
// sampler and the paper's confidence policy, the baselines' under greedy decoding; takeoff step,
// collapsed seeds) and a plot of
// held-out board accuracy against step.
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import type { AttentionKind } from '../../model/attention-pattern.js';
import { CausalDecoder } from '../../model/causal-decoder.js';
import type { Precision } from '../../model/precision.js';
import { precisionNote } from '../../model/precision.js';
import { describeProcess, parseProcessName } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { arNetworkConfig, matchedMlpHidden } from '../../tasks/sudoku/autoregressive/train.js';
import { scoreBoards } from '../../tasks/sudoku/metrics.js';
import { SUDOKU_SIZES, type SudokuOptions, sudokuConfig } from '../../tasks/sudoku/presets.js';
import { solveSudoku } from '../../tasks/sudoku/solve.js';
import type { Augment } from '../../tasks/sudoku/symmetry.js';
import {
  hashPairs,
  type SudokuPairs,
  type SudokuTask,
  sudokuShape,
} from '../../tasks/sudoku/task.js';
import { TorchGenerator, tidy } from '../../torch/index.js';
import { buildModel } from '../../train/build.js';
import { loadTransformer, MetricsLog, runState, type TrainHooks } from '../../train/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { cached } from '../../util/cache.js';
import { writeSvg } from '../../util/plot.js';
import { mean, std } from '../../util/stats.js';
import { throttle } from '../../util/throttle.js';
import { reproduceFooter } from '../comparison-report.js';
import { keptResult } from '../kept-run.js';
import { workThrough } from '../run-queue.js';
import { trainUnlessScored } from '../train-to-end.js';
import { AR_MODELS, autoregressiveRun, isAutoregressive } from './autoregressive-run.js';
import { FINAL_EVAL } from './final-eval.js';

/** A seed has collapsed when its final adaptive solve rate is below this (near chance). */
export const COLLAPSE_BELOW = 0.01;

export interface CompareOptions {
  wait?: boolean; // false (--no-wait): runs other processes hold are left to them (run-queue.ts)
  out: string;
  size: string;
  precision?: Precision; // the networks' compute precision (model/precision.ts)
  steps: number;
  evalEvery?: number; // held-out evaluation period (default: the preset's)
  seeds: number[];
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
  command: string; // the command line that reproduces this
}

export interface RunSummary {
  model: string;
  seed: number;
  dir: string;
  solveRate: number; // adaptive sampler (the autoregressive baselines: greedy decoding)
  cellAccuracy: number; // adaptive sampler (greedy decoding)
  nfeMean: number; // adaptive sampler, per board (greedy decoding: network passes a board)
  confidenceRate: number | null; // the paper's confidence policy at `nfe` (null: no such sampler)
  takeoff: number | null;
  collapsed: boolean;
}

/** The network options every diffusion run of the comparison shares. */
const networkOf = (o: CompareOptions): SudokuOptions => ({
  network: o.network,
  attention: o.attention,
  augment: o.augment,
  loops: o.loops,
  deepSupervision: o.deepSupervision,
});

const label = (model: string) =>
  isAutoregressive(model)
    ? AR_MODELS[model]!.label
    : describeProcess(sudokuConfig({ ...parseProcessName(model) }).process);

type FinalEvaluation = Pick<
  RunSummary,
  'solveRate' | 'cellAccuracy' | 'nfeMean' | 'confidenceRate'
>;

/** The final scores' cache key: the test set, the NFE and the step of the weights scored. */
const finalKey = (o: CompareOptions, step: number) => ({
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
  o: CompareOptions,
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
  o: CompareOptions,
  hooks: TrainHooks = {},
): Promise<RunSummary[] | null> {
  const queue = o.seeds.flatMap((seed) =>
    o.models.map((model) => {
      const dir = join(o.out, `${model}-seed${seed}`);
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
          collapsed: f.solveRate < COLLAPSE_BELOW,
        };
      };
      return { dir, work };
    }),
  );
  const summaries = await workThrough(queue, { log: hooks.log, wait: o.wait });
  if (summaries) await writeReport(o, summaries);
  return summaries;
}

/** A seed of an autoregressive baseline, at the comparison's size, budget and augmentation. */
function baseline(
  task: SudokuTask,
  o: CompareOptions,
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
    collapsed: f.solveRate < COLLAPSE_BELOW,
  };
}

/**
 * The parameter count of the comparison's diffusion network (the same for every process: the
 * processes differ in W and the hazards, not in the network), which the baselines match.
 */
export function diffusionParameters(o: CompareOptions): number {
  const c = sudokuConfig({ size: o.size, ...networkOf(o) });
  return tidy(() =>
    buildModel(sudokuShape, c.model, new TorchGenerator(0), c.process).numParameters(),
  );
}

/** The report's paragraph on the autoregressive baselines: their format, size and decoding. */
function baselinesNote(o: CompareOptions): string {
  const target = diffusionParameters(o);
  const h = matchedMlpHidden(o.size, target);
  const params = tidy(() =>
    new CausalDecoder(arNetworkConfig(o.size, h), new TorchGenerator(0)).numParameters(),
  );
  return `The autoregressive baselines (Shah et al. 2024) are causal transformers of the same width, depth, heads and optimiser with dense causal attention, their MLP width set to ${h} so that they have the diffusion network's parameter count (${params.toLocaleString('en-US')} against ${target.toLocaleString('en-US')}). Each board is written as Shah et al. write it: the clues first (row-major) as a prefix, so that every blank is predicted with every clue in view, then the blanks left to right or in the order a logical solver fills them (cells the solver cannot place last, row-major). They are trained by next-token cross-entropy on the blanks and decoded greedily in that order: their board accuracy is under greedy decoding (one network pass a position some board predicts: the NFE column), and the confidence policy does not apply (NA).\n`;
}

/** The report and what goes beside it: its plot (the report's name, .svg). */
export const sudokuReportFiles = (doc: string) => ({
  report: doc,
  beside: [doc.replace(/\.md$/, '.svg')],
});

async function writeReport(o: CompareOptions, runs: RunSummary[]): Promise<void> {
  const pct = (xs: number[]) =>
    `${mean(xs.map((x) => 100 * x)).toFixed(2)} +- ${std(xs.map((x) => 100 * x)).toFixed(2)}`;
  const rows = o.models.map((k) => {
    const rs = runs.filter((r) => r.model === k);
    const takeoffs = rs.map((r) => r.takeoff).filter((x): x is number => x !== null);
    const per = rs.map((r) => `${(100 * r.solveRate).toFixed(1)}`).join(', ');
    const collapsed = rs.filter((r) => r.collapsed).length;
    const confidence = rs.map((r) => r.confidenceRate).filter((x): x is number => x !== null);
    return `| ${label(k)} | ${pct(rs.map((r) => r.solveRate))} | ${per} | ${mean(rs.map((r) => r.nfeMean)).toFixed(1)} | ${confidence.length ? pct(confidence) : 'NA'} | ${takeoffs.length ? Math.round(mean(takeoffs)) : 'none'} (${takeoffs.length}/${rs.length} took off) | ${collapsed}/${rs.length} |`;
  });
  const [svg] = sudokuReportFiles(o.doc).beside as [string];
  const c = sudokuConfig({ size: o.size, ...networkOf(o) });
  const ar = o.models.some(isAutoregressive) ? baselinesNote(o) : '';
  const md = `# Sudoku: ${o.models.map(label).join(', ')} at this machine's scale

Size \`${o.size}\` (same network and optimiser for all${o.network ? `, network \`${o.network}\`` : ''}: attention \`${c.model.attention ?? 'dense'}\`, ${c.model.structure ? 'row, column and box embeddings' : 'no structure embeddings'}, ${c.model.loops ?? 1} loop(s) through the blocks${c.deepSupervision ? ' (deep supervision)' : ''}, augmentation \`${c.augment}\`${precisionNote(o.precision, ',')}), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Board accuracy: exact-match solve rate of the EMA model on the first ${o.test.puzzles.length} held-out puzzles, under the
adaptive sampler (at most ${o.adaptiveNfe} NFE a board; its mean NFE in the table) and under the paper's confidence policy at ${o.nfe} NFE.
Takeoff: first training evaluation (every ${o.evalEvery ?? SUDOKU_SIZES[o.size]!.evalEvery} steps, 200 held-out puzzles, confidence policy at 32 NFE)
that solves a board. Collapsed: a seed whose final adaptive solve rate is below ${100 * COLLAPSE_BELOW}%.
${ar}
| method | board accuracy (%), adaptive (baselines: greedy), mean +- std | per seed | NFE a board | board accuracy (%), confidence ${o.nfe} NFE | takeoff step | collapsed |
|---|---|---|---|---|---|---|
${rows.join('\n')}

![held-out board accuracy against step](${svg.split('/').pop()})

${reproduceFooter(o.command)}`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
  const values = runs.flatMap((r) =>
    new MetricsLog(r.dir, ['board_accuracy', 'cell_accuracy'])
      .rows()
      .filter((row) => row.board_accuracy !== null)
      .map((row) => ({
        step: row.step,
        board_accuracy: row.board_accuracy,
        run: `${label(r.model)} seed ${r.seed}`,
        model: r.model,
      })),
  );
  const spec: TopLevelSpec = {
    data: { values },
    width: 520,
    height: 260,
    mark: 'line',
    encoding: {
      x: { field: 'step', type: 'quantitative' },
      y: { field: 'board_accuracy', type: 'quantitative', title: 'held-out board accuracy' },
      color: { field: 'model', type: 'nominal' },
      detail: { field: 'run', type: 'nominal' },
    },
  };
  await writeSvg(svg, spec);
}
