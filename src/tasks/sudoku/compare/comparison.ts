// The paper's Sudoku comparison at this machine's scale (sec:exp-sudoku,
// tab:sudoku_schedule_ablations): hybrid (CADD, W = I) against sjd (constraint graph, sigma_W = 1.5),
// same network, budget and seeds. Each run is a resumable run folder; finished runs are
// skipped and their final scores cached beside them, so the comparison can be continued across
// sessions. Writes a Markdown table (board accuracy mean +- std over seeds under the adaptive
// sampler and the paper's confidence policy, takeoff step, collapsed seeds) and a plot of
// held-out board accuracy against step.
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import type { AttentionKind } from '../../../model/attention-pattern.js';
import type { Precision } from '../../../model/precision.js';
import { describeProcess, parseProcessName } from '../../../process/index.js';
import {
  loadTransformer,
  MetricsLog,
  runState,
  type TrainHooks,
  trainToEnd,
  workThrough,
} from '../../../train/index.js';
import { makeDir, writeFileAtomic } from '../../../util/atomic.js';
import { cached } from '../../../util/cache.js';
import { reproduceFooter } from '../../../util/comparison-report.js';
import { writeSvg } from '../../../util/plot.js';
import { mean, std } from '../../../util/stats.js';
import { throttle } from '../../../util/throttle.js';
import { scoreBoards } from '../metrics.js';
import { SUDOKU_SIZES, sudokuConfig } from '../presets.js';
import { solveSudoku } from '../solve.js';
import type { Augment } from '../symmetry.js';
import { hashPairs, type SudokuPairs, type SudokuTask } from '../task.js';

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
  models: string[]; // process/choice.ts's names: 'hybrid' (CADD), 'sjd' (the constraint-graph W), 'sjd-<sigma_W>', 'masked'
  attention?: AttentionKind; // the network (default: the size's)
  augment?: Augment; // training boards' symmetries (default: the size's)
  loops?: number; // weight-tied passes through the blocks (default: the size's)
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
  solveRate: number; // adaptive sampler
  cellAccuracy: number; // adaptive sampler
  nfeMean: number; // adaptive sampler, per board
  confidenceRate: number; // the paper's confidence policy at `nfe`
  takeoff: number | null;
  collapsed: boolean;
}

const label = (model: string) =>
  describeProcess(sudokuConfig({ ...parseProcessName(model) }).process);

type FinalEvaluation = Pick<
  RunSummary,
  'solveRate' | 'cellAccuracy' | 'nfeMean' | 'confidenceRate'
>;

/**
 * A finished run's held-out scores under both samplers, cached beside it (final-eval.json) for
 * this test set, these NFE and this step: a resumed comparison does not evaluate it again.
 */
function finalEvaluation(
  dir: string,
  task: SudokuTask,
  o: CompareOptions,
  step: number,
  log?: (line: string) => void,
): FinalEvaluation {
  const key = { puzzles: hashPairs(o.test), adaptiveNfe: o.adaptiveNfe, nfe: o.nfe, step };
  return cached(join(dir, 'final-eval.json'), key, () => {
    const { model, process: proc } = loadTransformer(dir, task);
    const solve = (sampler: string, nfe: number) => {
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
        const config = sudokuConfig({
          size: o.size,
          ...parseProcessName(model),
          seed,
          steps: o.steps,
          precision: o.precision,
          evalEvery: o.evalEvery,
          attention: o.attention,
          augment: o.augment,
          loops: o.loops,
          deepSupervision: o.deepSupervision,
        });
        if (!(await trainToEnd(dir, config, task, hooks))) return null;
        const state = runState(dir);
        const f = finalEvaluation(dir, task, o, state.step, hooks.log);
        hooks.log?.(
          `${dir}: solve rate ${(100 * f.solveRate).toFixed(2)}% adaptive, ${(100 * f.confidenceRate).toFixed(2)}% confidence; takeoff ${state.takeoff ?? 'none'}`,
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
    return `| ${label(k)} | ${pct(rs.map((r) => r.solveRate))} | ${per} | ${mean(rs.map((r) => r.nfeMean)).toFixed(1)} | ${pct(rs.map((r) => r.confidenceRate))} | ${takeoffs.length ? Math.round(mean(takeoffs)) : 'none'} (${takeoffs.length}/${rs.length} took off) | ${collapsed}/${rs.length} |`;
  });
  const [svg] = sudokuReportFiles(o.doc).beside as [string];
  const c = sudokuConfig({
    size: o.size,
    attention: o.attention,
    augment: o.augment,
    loops: o.loops,
    deepSupervision: o.deepSupervision,
  });
  const md = `# Sudoku: CADD against SJD at this machine's scale

Size \`${o.size}\` (same network and optimiser for both: attention \`${c.model.attention ?? 'dense'}\`, ${c.model.loops ?? 1} loop(s) through the blocks${c.deepSupervision ? ' (deep supervision)' : ''}, augmentation \`${c.augment}\`), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Board accuracy: exact-match solve rate of the EMA model on the first ${o.test.puzzles.length} held-out puzzles, under the
adaptive sampler (at most ${o.adaptiveNfe} NFE a board; its mean NFE in the table) and under the paper's confidence policy at ${o.nfe} NFE.
Takeoff: first training evaluation (every ${o.evalEvery ?? SUDOKU_SIZES[o.size]!.evalEvery} steps, 200 held-out puzzles, confidence policy at 32 NFE)
that solves a board. Collapsed: a seed whose final adaptive solve rate is below ${100 * COLLAPSE_BELOW}%.

| method | board accuracy (%), adaptive, mean +- std | per seed | NFE a board | board accuracy (%), confidence ${o.nfe} NFE | takeoff step | collapsed |
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
