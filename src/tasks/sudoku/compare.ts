// The paper's Sudoku comparison at this machine's scale (sec:exp-sudoku,
// tab:sudoku_schedule_ablations): hybrid (CADD, W = I) against sjd (constraint graph, sigma_W = 1.5),
// same network, budget and seeds. Each run is a resumable run folder; finished runs are
// skipped, so the comparison can be continued across sessions. Writes a Markdown table (board
// accuracy mean +- std over seeds, takeoff step) and a plot of held-out board accuracy
// against step.
import { dirname, join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { writeSvg } from '../../eval/plot.js';
import { mean, std } from '../../eval/stats.js';
import { describeProcess } from '../../process/index.js';
import { loadModel, MetricsLog, runState, type TrainHooks, trainToEnd } from '../../train/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { scoreBoards } from './metrics.js';
import { SUDOKU_SIZES, sudokuConfig } from './presets.js';
import { solveSudoku } from './solve.js';
import type { SudokuPairs, SudokuTask } from './task.js';

export interface CompareOptions {
  out: string;
  size: string;
  steps: number;
  evalEvery?: number; // held-out evaluation period (default: the preset's)
  seeds: number[];
  processes: string[]; // 'hybrid' (CADD), 'sjd' (the constraint-graph W), 'masked'
  test: SudokuPairs; // final evaluation set
  nfe: number;
  doc: string; // Markdown path; the plot goes beside it (.svg)
  command: string; // the command line that reproduces this
}

export interface RunSummary {
  process: string;
  seed: number;
  dir: string;
  solveRate: number;
  cellAccuracy: number;
  takeoff: number | null;
}

const label = (process: string) => describeProcess(sudokuConfig({ process }).process);

export async function runComparison(
  task: SudokuTask,
  o: CompareOptions,
  hooks: TrainHooks = {},
): Promise<RunSummary[]> {
  const summaries: RunSummary[] = [];
  for (const seed of o.seeds) {
    for (const process of o.processes) {
      const dir = join(o.out, `${process}-seed${seed}`);
      hooks.log?.(`${label(process)}, seed ${seed}`);
      const config = sudokuConfig({
        size: o.size,
        process,
        seed,
        steps: o.steps,
        evalEvery: o.evalEvery,
      });
      if (!(await trainToEnd(dir, config, task, hooks))) return summaries;
      const { model, process: proc } = loadModel(dir, task);
      const { boards } = solveSudoku(model, proc, o.test.puzzles, {
        sampler: 'confidence',
        nfe: o.nfe,
        seed: 0,
      });
      const s = scoreBoards(o.test.puzzles, o.test.solutions, boards);
      const state = runState(dir);
      summaries.push({
        process,
        seed,
        dir,
        solveRate: s.solve_rate,
        cellAccuracy: s.cell_accuracy,
        takeoff: state.takeoff ?? null,
      });
      hooks.log?.(
        `${dir}: solve rate ${(100 * s.solve_rate).toFixed(2)}%, takeoff ${state.takeoff ?? 'none'}`,
      );
    }
  }
  await writeReport(o, summaries);
  return summaries;
}

async function writeReport(o: CompareOptions, runs: RunSummary[]): Promise<void> {
  const rows = o.processes.map((k) => {
    const rs = runs.filter((r) => r.process === k);
    const acc = rs.map((r) => 100 * r.solveRate);
    const takeoffs = rs.map((r) => r.takeoff).filter((x): x is number => x !== null);
    const per = rs.map((r) => `${(100 * r.solveRate).toFixed(1)}`).join(', ');
    return `| ${label(k)} | ${mean(acc).toFixed(2)} +- ${std(acc).toFixed(2)} | ${per} | ${takeoffs.length ? Math.round(mean(takeoffs)) : 'none'} (${takeoffs.length}/${rs.length} took off) |`;
  });
  const svg = o.doc.replace(/\.md$/, '.svg');
  const md = `# Sudoku: CADD against SJD at this machine's scale

Size \`${o.size}\` (same network and optimiser for both), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Board accuracy: exact-match solve rate of the EMA model on the first ${o.test.puzzles.length} held-out puzzles, confidence
policy at ${o.nfe} NFE. Takeoff: first training evaluation (every ${o.evalEvery ?? SUDOKU_SIZES[o.size]!.evalEvery} steps, 200 held-out puzzles) that solves a board.

| method | board accuracy (%) mean +- std | per seed | takeoff step |
|---|---|---|---|
${rows.join('\n')}

![held-out board accuracy against step](${svg.split('/').pop()})

Reproduce: \`${o.command}\` (resumable: run it again to continue).
`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
  const values = runs.flatMap((r) =>
    new MetricsLog(r.dir, ['board_accuracy', 'cell_accuracy'])
      .rows()
      .filter((row) => row.board_accuracy !== null)
      .map((row) => ({
        step: row.step,
        board_accuracy: row.board_accuracy,
        run: `${label(r.process)} seed ${r.seed}`,
        process: r.process,
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
      color: { field: 'process', type: 'nominal' },
      detail: { field: 'run', type: 'nominal' },
    },
  };
  await writeSvg(svg, spec);
}
