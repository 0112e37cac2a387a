#!/usr/bin/env node
// Writes docs/reports/precision.md from the results of scripts/precision-quality.sh (one JSON
// file each, in OUT): per task and figure, float32 and bfloat16 as mean +- std over the seeds
// run, the speed each way, and a verdict. bfloat16 keeps the result where the difference of the
// means is within two standard errors of the difference: the seeds' spread, or for a rate over N
// puzzles, at least the binomial error sqrt(p (1 - p) / N) of each run. Then, from the runs of
// scripts/precision-training.sh (TRAINING: one run folder per task, precision and seed), the
// held-out curves of training both ways, their plot beside the report (precision-training.svg)
// and the same verdict on the last evaluation. The tasks `auto` keeps at float32 are read from
// the build (dist/, npm run build).
//   node scripts/precision-report.mjs [OUT] [REPORT] [TRAINING]
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  AUTO_KEEPS_FLOAT32,
  AUTO_TRAINING_KEEPS_FLOAT32,
} from '../dist/src/model/auto-precision.js';
import { metricsRows } from '../dist/src/train/metrics.js';
import { writeSvg } from '../dist/src/util/plot.js';

const out = process.argv[2] ?? 'runs/precision-quality';
const report = process.argv[3] ?? 'docs/reports/precision.md';
const training = process.argv[4] ?? 'runs/precision-training';
if (!existsSync(out)) {
  console.error(`precision-report: no folder ${out} (run scripts/precision-quality.sh first)`);
  process.exit(2);
}
const results = Object.fromEntries(
  readdirSync(out)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(out, f), 'utf8'))]),
);

/** The runs of `prefix` at precision p: {seed: json}. */
const runs = (prefix, p) =>
  Object.entries(results)
    .filter(([k]) => k.startsWith(`${prefix}-${p}-s`))
    .map(([, v]) => v);

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
/** The population standard deviation, as every report of this project gives it. */
const std = (xs) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / xs.length);
/** The standard error of the mean: the sample variance (n - 1) over n. */
const stderr = (xs) => (xs.length < 2 ? 0 : std(xs) / Math.sqrt(xs.length - 1));

/**
 * One figure both ways from its values per seed: { f32, b16 } of { xs, mean, std, se }, the
 * standard error of the difference (the seeds' spread, at least the binomial error for a rate
 * over `count` items) and the verdict.
 */
function compareValues(a, b, count) {
  const side = (xs) => {
    const binomial = count ? Math.sqrt((mean(xs) * (1 - mean(xs))) / count) : 0;
    return {
      xs,
      mean: mean(xs),
      std: std(xs),
      se: Math.max(stderr(xs), binomial / Math.sqrt(xs.length)),
    };
  };
  if (a.length === 0 || b.length === 0) return null;
  const [f32, b16] = [side(a), side(b)];
  const se = Math.sqrt(f32.se ** 2 + b16.se ** 2);
  const diff = b16.mean - f32.mean;
  // one run a side with no binomial error: no spread to judge by
  const judged = count || (a.length > 1 && b.length > 1);
  return { f32, b16, diff, se, within: judged ? Math.abs(diff) <= 2 * se : null };
}

/**
 * The verdict's cell, saying which way bfloat16 lies where it is outside: the rates here are
 * better higher, the distances and losses (num) better lower.
 */
const verdictCell = (c, fmt) => {
  if (c.within === null) return 'no verdict (one seed)';
  if (c.within) return 'within';
  return `**outside** (bfloat16 ${(c.diff > 0) === (fmt === pct) ? 'better' : 'worse'})`;
};

/** One sampling figure both ways, read from the quality runs of `prefix`. */
const compare = (prefix, read, count) =>
  compareValues(runs(prefix, 'float32').map(read), runs(prefix, 'bfloat16').map(read), count);

const pct = (x) => `${(100 * x).toFixed(2)}%`;
const num = (x) => x.toFixed(3);
const both = (s, f) => `${f(s.mean)}${s.xs.length > 1 ? ` +- ${f(s.std)}` : ''} (${s.xs.length})`;

const rows = [];
const verdicts = {};
const missing = [];
function row(task, what, prefix, read, fmt, count) {
  const c = compare(prefix, read, count);
  if (!c) {
    missing.push(`${task}, ${what}`);
    return;
  }
  rows.push(
    `| ${task} | ${what} | ${both(c.f32, fmt)} | ${both(c.b16, fmt)} | ${fmt === pct ? `${(100 * c.diff).toFixed(2)} points` : num(c.diff)} +- ${fmt === pct ? (100 * c.se).toFixed(2) : num(c.se)} | ${verdictCell(c, fmt)} |`,
  );
  if (c.within !== null) verdicts[task] = (verdicts[task] ?? true) && c.within;
}

for (const [set, name] of [
  ['noguess', 'no-guess test, first 2,000'],
  ['guess', 'guess-test (need search), 2,000'],
]) {
  row(
    'Sudoku',
    `${name}: solved at the defaults`,
    `sudoku-${set}-defaults`,
    (r) => r.solve_rate,
    pct,
    2000,
  );
  row(
    'Sudoku',
    `${name}: solved, model alone`,
    `sudoku-${set}-alone`,
    (r) => r.solve_rate,
    pct,
    2000,
  );
}
row('text', 'valid words >= 5, NFE 128', 'text-nfe128', (r) => r.valid_words5, pct);
row('text', 'unique words, NFE 128', 'text-nfe128', (r) => r.unique_words, pct);
for (const nfe of [64, 256])
  row('images', `FD, NFE ${nfe}`, `image-nfe${nfe}`, (r) => r.samples.fd, num);

/**
 * The shipped text model's held-out ELBO in the text runs, a line: each run scores the same
 * windows with the same draws whatever its sampling seed, so each precision has one value.
 */
function elboLine() {
  const [a, b] = ['float32', 'bfloat16'].map((p) =>
    runs('text-nfe128', p)
      .map((r) => r.elbo_bits)
      .filter((x) => typeof x === 'number'),
  );
  if (a.length === 0 || b.length === 0) return '';
  const [x, y] = [mean(a), mean(b)];
  return `The shipped text model's held-out ELBO in the same runs (the same windows and draws at every sampling seed: one value a precision): ${x.toFixed(4)} bits a character in float32 against ${y.toFixed(4)} in bfloat16, ${((100 * Math.abs(y - x)) / x).toFixed(2)}% apart.\n\n`;
}

/** Speed at each precision, mean over the runs of `prefix`. */
function speed(prefix, read, unit) {
  const [a, b] = ['float32', 'bfloat16'].map((p) => runs(prefix, p).map(read));
  if (a.length === 0 || b.length === 0) return null;
  return `${mean(a).toFixed(1)} against ${mean(b).toFixed(1)} ${unit} (${(mean(b) / mean(a)).toFixed(2)}x)`;
}
const speeds = [
  [
    'Sudoku, no-guess at the defaults',
    speed('sudoku-noguess-defaults', (r) => r.boards_per_s, 'boards/s'),
  ],
  [
    'Sudoku, guess-test at the defaults',
    speed('sudoku-guess-defaults', (r) => r.boards_per_s, 'boards/s'),
  ],
  ['text, NFE 128', speed('text-nfe128', (r) => r.chars_per_s, 'characters/s')],
  ['images, NFE 64', speed('image-nfe64', (r) => r.n / r.seconds, 'images/s')],
].filter(([, s]) => s);

/**
 * The held-out figures of each task's evaluation during training (metrics.csv columns: the
 * first decides the verdict) and which way is better.
 */
const HELD_OUT = {
  sudoku: [
    ['cell_accuracy', 'held-out cells right', pct],
    ['board_accuracy', 'held-out boards solved (of 200)', pct, 200],
  ],
  text: [
    ['valid_loss', 'held-out loss', num],
    ['elbo_bits', 'held-out ELBO, bits a character', num],
  ],
  image: [['valid_loss', 'held-out loss', num]],
};

/**
 * TRAINING's finished runs (TASK-PRECISION-sSEED whose last step is evaluated): per task and
 * precision, each seed's evaluated rows of metrics.csv and its mean training tokens/s.
 */
function trainingRuns() {
  const found = {};
  if (!existsSync(training)) return found;
  for (const d of readdirSync(training).sort()) {
    const m = /^(sudoku|text|image)-(float32|bfloat16)-s(\d+)$/.exec(d);
    const [csv, config] = [join(training, d, 'metrics.csv'), join(training, d, 'config.json')];
    if (!m || !existsSync(csv) || !existsSync(config)) continue;
    const all = metricsRows(readFileSync(csv, 'utf8'));
    const rows = all.filter((r) => r[HELD_OUT[m[1]][0][0]] !== null);
    if (rows.at(-1)?.step !== JSON.parse(readFileSync(config, 'utf8')).steps) continue;
    const tokens = mean(all.map((r) => r.tokens_per_s).filter((x) => x !== null));
    found[m[1]] ??= {};
    found[m[1]][m[2]] ??= [];
    found[m[1]][m[2]].push({ seed: Number(m[3]), rows, tokens });
  }
  return found;
}

/** The evaluated steps of a side's first run. */
const steps = (side) => side[0].rows.map((r) => r.step);

/** Each run's `col` at evaluation `step`, for one precision's runs. */
const at = (side, col, step) => side.map((r) => r.rows.find((x) => x.step === step)?.[col]);

/**
 * Whether two sets of training curves agree within seed noise: over the second half of the
 * evaluations, the seeds' variance at each step pooled over the steps and both precisions gives
 * one seed SD (two seeds a side measure little at one step), and every difference of the means
 * must lie within two standard errors of a difference (sd sqrt(1/n + 1/m)). Null below two
 * seeds a side.
 */
function curvesAgree(f32, b16, col, all) {
  if (f32.length < 2 || b16.length < 2) return null;
  const half = all.filter((k) => k > all.at(-1) / 2);
  let ss = 0;
  let df = 0;
  let worst = 0;
  for (const k of half) {
    const [a, b] = [at(f32, col, k), at(b16, col, k)];
    for (const xs of [a, b]) {
      const m = mean(xs);
      ss += xs.reduce((t, x) => t + (x - m) ** 2, 0);
      df += xs.length - 1;
    }
    const d = mean(b) - mean(a);
    if (Math.abs(d) > Math.abs(worst)) worst = d;
  }
  const sd = Math.sqrt(ss / df);
  const se = sd * Math.sqrt(1 / f32.length + 1 / b16.length);
  return { from: half[0], worst, sd, se, within: Math.abs(worst) <= 2 * se };
}

const trained = trainingRuns();
const trainRows = [];
const agreeRows = [];
const trainCurves = [];
const trainVerdicts = {};
const points = [];
for (const [task, figures] of Object.entries(HELD_OUT)) {
  const [f32, b16] = ['float32', 'bfloat16'].map((p) => trained[task]?.[p] ?? []);
  if (f32.length === 0 || b16.length === 0) continue;
  const last = f32[0].rows.at(-1).step;
  figures.forEach(([col, what, fmt, count]) => {
    const c = compareValues(at(f32, col, last), at(b16, col, last), count);
    if (c.f32.xs.includes(undefined) || c.b16.xs.includes(undefined)) return;
    const d = fmt === pct ? `${(100 * c.diff).toFixed(2)} points` : num(c.diff);
    const e = fmt === pct ? (100 * c.se).toFixed(2) : num(c.se);
    trainRows.push(
      `| ${task} | ${what}, step ${last} | ${both(c.f32, fmt)} | ${both(c.b16, fmt)} | ${d} +- ${e} | ${verdictCell(c, fmt)} |`,
    );
  });
  const [col, what, fmt] = figures[0];
  const agree = curvesAgree(f32, b16, col, steps(f32));
  if (agree) {
    const show = (x) => (fmt === pct ? `${(100 * x).toFixed(2)} points` : num(x));
    agreeRows.push(
      `| ${task} | ${what} | ${agree.from} to ${last} | ${show(agree.worst)} | ${show(2 * agree.se)} (${show(agree.sd)}) | ${agree.within ? 'agree' : '**differ**'} |`,
    );
    trainVerdicts[task] = agree.within;
  }
  const cell = (side, step) => {
    const xs = at(side, col, step);
    return `${fmt(mean(xs))} (${xs.map(fmt).join(', ')})`;
  };
  trainCurves.push(
    `${task}, ${what} (mean, then each seed):\n\n| step | float32 | bfloat16 |\n|---|---|---|\n${steps(
      f32,
    )
      .map((s) => `| ${s} | ${cell(f32, s)} | ${cell(b16, s)} |`)
      .join(
        '\n',
      )}\n\nMean training speed in these runs, float32 against bfloat16: ${mean(f32.map((r) => r.tokens)).toFixed(0)} against ${mean(b16.map((r) => r.tokens)).toFixed(0)} tokens/s (one-thread runs on a machine shared with other jobs, whose load changed from run to run: not a ratio to read; \`npm run bench\` has the step both ways on a quiet one).`,
  );
  for (const [precision, side] of [
    ['float32', f32],
    ['bfloat16', b16],
  ])
    for (const r of side)
      for (const row of r.rows)
        points.push({
          task: `${task}: ${what}`,
          precision,
          seed: r.seed,
          step: row.step,
          value: row[col],
        });
}
const plot = join(dirname(report), 'precision-training.svg');
if (points.length > 0)
  await writeSvg(plot, {
    data: { values: points },
    facet: { column: { field: 'task', type: 'nominal', title: null } },
    spec: {
      width: 220,
      height: 180,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'step', type: 'quantitative' },
        y: { field: 'value', type: 'quantitative', scale: { zero: false }, title: 'held out' },
        color: { field: 'precision', type: 'nominal' },
        detail: { field: 'seed', type: 'nominal' },
        strokeDash: { field: 'seed', type: 'nominal' },
      },
    },
    resolve: { scale: { y: 'independent' } },
  });
const trainMissing = Object.keys(HELD_OUT).filter((t) => !(t in trainVerdicts));
const except = (keeps) =>
  Object.keys(keeps).length === 0
    ? ''
    : `, except: ${Object.entries(keeps)
        .map(([t, why]) => `${t} (${why.replace(/^auto: /, '')})`)
        .join('; ')}`;
const trainingSection = `## Training: bfloat16 autocast against float32

\`scripts/precision-training.sh\`: \`sjd train sudoku --size cpu --steps 1000 --eval-every 100
--precision bfloat16\` from scratch, and the same with \`text\` and \`image\` and at float32, seeds 0 and 1, each task's default data (Sudoku's
generated puzzles, the embedded text, Fashion-MNIST), one thread each beside other one-thread
jobs. The held-out figure is the one each task's training evaluates (metrics.csv), at the last
evaluation by the rule above, and over the second half of the evaluations as curves: the seeds'
variance pooled over those steps and both precisions gives one seed SD, and the curves agree
where every difference of the means lies within two standard errors of a difference (one step
of two seeds alone measures its spread too roughly to decide by).

${trainRows.length > 0 ? `| task | figure | float32 | bfloat16 | difference | bfloat16 |\n|---|---|---|---|---|---|\n${trainRows.join('\n')}\n\n${agreeRows.length > 0 ? `| task | curve | steps | largest difference of the means | two standard errors (pooled seed SD) | curves |\n|---|---|---|---|---|---|\n${agreeRows.join('\n')}\n\n` : ''}![held-out figures against step, both precisions, each seed](${basename(plot)})\n\n${trainCurves.join('\n\n')}\n\n` : ''}${
  trainMissing.length > 0
    ? `No verdict yet (scripts/precision-training.sh goes on where it stopped; two seeds a side decide): ${trainMissing.join(', ')}.\n\n`
    : ''
}At \`--precision auto\`, its default, \`sjd train\` trains every task in bfloat16 where the
hardware has it${except(AUTO_TRAINING_KEEPS_FLOAT32)}.
`;

const text = `# bfloat16 against float32 sampling, task by task

What the network's compute precision costs in quality (docs/commands.md, \`--precision\`): the
shipped models sampled by the commands a user runs, at float32 and at bfloat16 (matrix products
and convolutions under autocast, the logits and the process after them as in float32), with the
same seeds. Written by \`node scripts/precision-report.mjs training/precision-quality
docs/reports/precision.md training/precision-training\` from the results of
\`scripts/precision-quality.sh ../shared/data/sudoku\` and \`scripts/precision-training.sh\` (their
JSON lines and run folders kept in training/; one thread each, on this project's 2-core AMD EPYC
with AVX-512 BF16, beside other one-thread jobs, so speeds are the loaded machine's).

- Sudoku: \`sjd eval sudoku\` on the first 2,000 of \`qqwing_noguess_test.csv\` and on 2,000
  generated puzzles that need search (\`guess-test\` of [sudoku-hard.md](../sudoku-hard.md), seed
  101), at the defaults (Sudoku's rules, \`adaptive-remask\`, retries; seed 0) and with the model
  alone (\`--no-rules --retries 0\`: the adaptive sampler, one attempt; seeds 0 and 1).
- Text: \`sjd eval text --nfe 128 -n 64\` at the default temperature, seeds 0, 1, 2: the valid- and
  unique-word fractions, the frontier's point at NFE 128.
- Images: \`sjd eval image --nfe 64|256 -n 500\`, seeds 0, 1, 2: the Fréchet distance of the
  samples in the shipped feature network's space (lower is better; the feature network itself
  in float32).

Each figure is mean +- std over the seeds (their number in brackets; the population standard
deviation, as in every report here); bfloat16 is *within* where the difference of the means is
within two standard errors of the difference (from the seeds' sample variance, and for a solve
rate at least the binomial error of 2,000 puzzles).

| task | figure | float32 | bfloat16 | difference | bfloat16 |
|---|---|---|---|---|---|
${rows.join('\n')}

${elboLine()}Speed in the same runs, float32 against bfloat16 (one thread, loaded machine; \`npm run bench\`
gives the ratios on a quiet one):

${speeds.map(([k, s]) => `- ${k}: ${s}`).join('\n')}

${missing.length > 0 ? `Not measured yet (scripts/precision-quality.sh goes on where it stopped): ${missing.join('; ')}.\n\n` : ''}Verdict${missing.length > 0 ? ' so far' : ''}: ${Object.entries(
  verdicts,
)
  .map(([t, ok]) => {
    const left = missing.filter((m) => m.startsWith(`${t},`)).length;
    const so = `${ok ? 'within' : 'outside'} float32's spread`;
    return `${t} ${so}${left > 0 ? ` on the figures measured (${left} to come)` : ''}`;
  })
  .join(
    '; ',
  )}. Under \`--precision auto\` (src/model/auto-precision.ts) every task is bfloat16 where
the hardware has it${except(AUTO_KEEPS_FLOAT32)}.

${trainingSection}`;
const tmp = `${report}.tmp`;
writeFileSync(tmp, text);
renameSync(tmp, report);
console.log(`wrote ${report}: ${rows.length} figures`);
