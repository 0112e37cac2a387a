// The Sudoku comparison's report (tab:sudoku_schedule_ablations at this machine's scale): board
// accuracy mean +- std over seeds under the adaptive sampler and the confidence policy
// (the baselines' under greedy decoding), takeoff step, rise step (rise.ts) and collapsed
// seeds, the baselines' note, the paper's claims judged seed by seed (verdicts.ts), and a plot
// of held-out board accuracy against step beside it.
import { dirname } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { CausalDecoder } from '../../model/causal-decoder.js';
import { precisionNote } from '../../model/precision.js';
import { arNetworkConfig, matchedMlpHidden } from '../../tasks/sudoku/autoregressive/train.js';
import { SUDOKU_SIZES, sudokuConfig } from '../../tasks/sudoku/presets.js';
import { TorchGenerator, tidy } from '../../torch/index.js';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
import { writeSvg } from '../../util/plot.js';
import { mean, std } from '../../util/stats.js';
import { reproduceFooter } from '../comparison-report.js';
import { isAutoregressive } from './autoregressive-run.js';
import {
  COLLAPSE_BELOW,
  diffusionParameters,
  label,
  networkOf,
  type RunSummary,
  type SudokuCompareOptions,
} from './options.js';
import { boardCurve, RISE_FRACTION } from './rise.js';
import { claimsSection } from './verdicts.js';

/** The report's paragraph on the autoregressive baselines: their format, size and decoding. */
function baselinesNote(o: SudokuCompareOptions): string {
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

/** The report (the table, the setting, the baselines' note) and its plot of held-out board accuracy. */
export async function writeReport(o: SudokuCompareOptions, runs: RunSummary[]): Promise<void> {
  const pct = (xs: number[]) =>
    `${mean(xs.map((x) => 100 * x)).toFixed(2)} +- ${std(xs.map((x) => 100 * x)).toFixed(2)}`;
  const rows = o.models.map((k) => {
    const rs = runs.filter((r) => r.model === k);
    const takeoffs = rs.map((r) => r.takeoff).filter((x): x is number => x !== null);
    const per = rs.map((r) => `${(100 * r.solveRate).toFixed(1)}`).join(', ');
    const collapsed = rs.filter((r) => r.collapsed).length;
    const confidence = rs.map((r) => r.confidenceRate).filter((x): x is number => x !== null);
    const rises = rs.map((r) => r.rise ?? 'none').join(', ');
    return `| ${label(k)} | ${pct(rs.map((r) => r.solveRate))} | ${per} | ${mean(rs.map((r) => r.nfeMean)).toFixed(1)} | ${confidence.length ? pct(confidence) : 'NA'} | ${takeoffs.length ? Math.round(mean(takeoffs)) : 'none'} (${takeoffs.length}/${rs.length} took off) | ${rises} | ${collapsed}/${rs.length} |`;
  });
  const [svg] = sudokuReportFiles(o.doc).beside as [string];
  const c = sudokuConfig({ size: o.size, ...networkOf(o) });
  const ar = o.models.some(isAutoregressive) ? baselinesNote(o) : '';
  const md = `# Sudoku: ${o.models.map(label).join(', ')} at this machine's scale

Size \`${o.size}\` (same network and optimiser for every diffusion model${o.network ? `, network \`${o.network}\`` : ''}: attention \`${c.model.attention ?? 'dense'}\`, ${c.model.structure ? 'row, column and box embeddings' : 'no structure embeddings'}, ${c.model.loops ?? 1} loop(s) through the blocks${c.deepSupervision ? ' (deep supervision)' : ''}, augmentation \`${c.augment}\`${precisionNote(o.precision, ',')}), ${o.steps} steps, seeds ${o.seeds.join(', ')}.
Board accuracy: exact-match solve rate of the EMA model on the first ${o.test.puzzles.length} held-out puzzles, under the
adaptive sampler (at most ${o.adaptiveNfe} NFE a board; its mean NFE in the table) and under the confidence policy at ${o.nfe} NFE (this project's \`--sampler confidence\`; the paper defines none).
Takeoff: first training evaluation (every ${o.evalEvery ?? SUDOKU_SIZES[o.size]!.evalEvery} steps, 200 held-out puzzles, confidence policy at 32 NFE)
that solves a board. Rise: per seed, the first such evaluation at ${100 * RISE_FRACTION}% of the seed's best held-out board accuracy,
which orders runs that all take off by the first evaluation. Collapsed: a seed whose final adaptive solve rate is below ${100 * COLLAPSE_BELOW}%.
${ar}
| method | board accuracy (%), adaptive (baselines: greedy), mean +- std | per seed | NFE a board | board accuracy (%), confidence ${o.nfe} NFE | takeoff step | rise step per seed | collapsed |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${claimsSection(runs, o.models, o.test.puzzles.length)}
![held-out board accuracy against step](${svg.split('/').pop()})

${reproduceFooter(o.command)}`;
  makeDir(dirname(o.doc));
  writeFileAtomic(o.doc, md);
  const values = runs.flatMap((r) =>
    boardCurve(r.dir).map((p) => ({
      step: p.step,
      board_accuracy: p.accuracy,
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
